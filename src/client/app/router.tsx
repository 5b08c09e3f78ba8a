import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RequireUser } from './RequireUser';

// One chunk per page: the home page does not download the checkout.
const HomePage = lazy(() => import(/* webpackChunkName: "page-home" */ '@/pages/HomePage'));
const CataloguePage = lazy(() => import(/* webpackChunkName: "page-catalog" */ '@/pages/CataloguePage'));
const ProductPage = lazy(() => import(/* webpackChunkName: "page-product" */ '@/pages/ProductPage'));
const CartPage = lazy(() => import(/* webpackChunkName: "page-cart" */ '@/pages/CartPage'));
const CheckoutPage = lazy(() => import(/* webpackChunkName: "page-checkout" */ '@/pages/CheckoutPage'));
const OrderSuccessPage = lazy(() => import(/* webpackChunkName: "page-order-success" */ '@/pages/OrderSuccessPage'));
const ProfilePage = lazy(() => import(/* webpackChunkName: "page-profile" */ '@/pages/ProfilePage'));
const AboutPage = lazy(() => import(/* webpackChunkName: "page-about" */ '@/pages/AboutPage'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "page-not-found" */ '@/pages/NotFoundPage'));

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
