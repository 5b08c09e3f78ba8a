import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RequireUser } from './RequireUser';

// One chunk per page: the home page does not download the checkout.
const HomePage = lazy(() => import('@/pages/HomePage'));
const CataloguePage = lazy(() => import('@/pages/CataloguePage'));
const ProductPage = lazy(() => import('@/pages/ProductPage'));
const CartPage = lazy(() => import('@/pages/CartPage'));
const CheckoutPage = lazy(() => import('@/pages/CheckoutPage'));
const OrderSuccessPage = lazy(() => import('@/pages/OrderSuccessPage'));
const ProfilePage = lazy(() => import('@/pages/ProfilePage'));
const AboutPage = lazy(() => import('@/pages/AboutPage'));
const NotFoundPage = lazy(() => import('@/pages/NotFoundPage'));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/catalog', element: <CataloguePage /> },
      { path: '/product/:art', element: <ProductPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/cart', element: <RequireUser><CartPage /></RequireUser> },
      { path: '/checkout', element: <RequireUser><CheckoutPage /></RequireUser> },
      { path: '/order-success', element: <OrderSuccessPage /> },
      { path: '/profile', element: <RequireUser><ProfilePage /></RequireUser> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
