import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { lazyWithAntd } from './lazyWithAntd';
import { RequireUser } from './RequireUser';

// One chunk per page: the home page downloads neither the checkout nor antd.
const HomePage = lazy(() => import(/* webpackChunkName: "page-home" */ '@/pages/HomePage'));
const CataloguePage = lazy(() => import(/* webpackChunkName: "page-catalog" */ '@/pages/CataloguePage'));
const ProductPage = lazy(() => import(/* webpackChunkName: "page-product" */ '@/pages/ProductPage'));
const CartPage = lazyWithAntd(() => import(/* webpackChunkName: "page-cart" */ '@/pages/CartPage'));
const CheckoutPage = lazyWithAntd(() => import(/* webpackChunkName: "page-checkout" */ '@/pages/CheckoutPage'));
const OrderSuccessPage = lazyWithAntd(() => import(/* webpackChunkName: "page-order-success" */ '@/pages/OrderSuccessPage'));
const ProfilePage = lazyWithAntd(() => import(/* webpackChunkName: "page-profile" */ '@/pages/ProfilePage'));
const AboutPage = lazyWithAntd(() => import(/* webpackChunkName: "page-about" */ '@/pages/AboutPage'));
const NotFoundPage = lazyWithAntd(() => import(/* webpackChunkName: "page-not-found" */ '@/pages/NotFoundPage'));

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

/** The shop's routes, inside whichever router the caller provides (BrowserRouter, or MemoryRouter in tests). */
export function AppRoutes({ tree = routes }: { tree?: RouteObject[] }) {
  return useRoutes(tree);
}
