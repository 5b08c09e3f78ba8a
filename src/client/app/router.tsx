import { lazy, Suspense } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { PageLoading } from '@/components/PageLoading';
import { AppLayout } from '@/layout/AppLayout';
import { RequireUser } from './RequireUser';

// One chunk per page (the server preloads some by name: PAGE_CHUNKS in shared/paths): the home page does not download the checkout.
const HomePage = lazy(() => import(/* webpackChunkName: "page-home" */ '@/pages/HomePage'));
const CataloguePage = lazy(() => import(/* webpackChunkName: "page-catalogue" */ '@/pages/CataloguePage'));
const ProductPage = lazy(() => import(/* webpackChunkName: "page-product" */ '@/pages/ProductPage'));
const CartPage = lazy(() => import(/* webpackChunkName: "page-cart" */ '@/pages/CartPage'));
const CheckoutPage = lazy(() => import(/* webpackChunkName: "page-checkout" */ '@/pages/CheckoutPage'));
const OrderSuccessPage = lazy(() => import(/* webpackChunkName: "page-order-success" */ '@/pages/OrderSuccessPage'));
const ProfilePage = lazy(() => import(/* webpackChunkName: "page-profile" */ '@/pages/ProfilePage'));
const ProfileOrderPage = lazy(() => import(/* webpackChunkName: "page-profile-order" */ '@/pages/ProfileOrderPage'));
const SearchPage = lazy(() => import(/* webpackChunkName: "page-search" */ '@/pages/SearchPage'));
const QuickOrderPage = lazy(() => import(/* webpackChunkName: "page-quick-order" */ '@/pages/QuickOrderPage'));
const AboutPage = lazy(() => import(/* webpackChunkName: "page-about" */ '@/pages/AboutPage'));
const PrivacyPage = lazy(() => import(/* webpackChunkName: "page-privacy" */ '@/pages/PrivacyPage'));
const ResetPasswordPage = lazy(() => import(/* webpackChunkName: "page-reset-password" */ '@/pages/ResetPasswordPage'));
const InvitationPage = lazy(() => import(/* webpackChunkName: "page-invitation" */ '@/pages/InvitationPage'));
const ConfirmEmailPage = lazy(() => import(/* webpackChunkName: "page-confirm-email" */ '@/pages/ConfirmEmailPage'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "page-not-found" */ '@/pages/NotFoundPage'));
// The back office: one chunk (with its antd CSS) that only a manager's browser downloads.
const AdminApp = lazy(() => import(/* webpackChunkName: "admin" */ '@/features/admin/AdminApp'));

export const routes: RouteObject[] = [
  {
    // Its own layout (a side menu, no storefront header); its pages are routed inside AdminApp.
    path: `${PAGE_PATHS.admin}/*`,
    element: (
      <RequireUser role="manager">
        <ErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            <AdminApp />
          </Suspense>
        </ErrorBoundary>
      </RequireUser>
    ),
  },
  {
    element: <AppLayout />,
    children: [
      { path: PAGE_PATHS.home, element: <HomePage /> },
      { path: PAGE_PATHS.catalogue, element: <CataloguePage /> },
      { path: PAGE_PATHS.product, element: <ProductPage /> },
      { path: PAGE_PATHS.search, element: <SearchPage /> },
      { path: PAGE_PATHS.about, element: <AboutPage /> },
      { path: PAGE_PATHS.privacy, element: <PrivacyPage /> },
      { path: PAGE_PATHS.resetPassword, element: <ResetPasswordPage /> },
      { path: PAGE_PATHS.confirmEmail, element: <ConfirmEmailPage /> },
      // Visitors too: a new employee has no account yet.
      { path: PAGE_PATHS.invitation, element: <InvitationPage /> },
      {
        path: PAGE_PATHS.cart,
        element: (
          <RequireUser>
            <CartPage />
          </RequireUser>
        ),
      },
      {
        path: PAGE_PATHS.checkout,
        element: (
          <RequireUser>
            <CheckoutPage />
          </RequireUser>
        ),
      },
      { path: PAGE_PATHS.orderSuccess, element: <OrderSuccessPage /> },
      {
        path: PAGE_PATHS.profile,
        element: (
          <RequireUser>
            <ProfilePage />
          </RequireUser>
        ),
      },
      {
        path: PAGE_PATHS.order,
        element: (
          <RequireUser>
            <ProfileOrderPage />
          </RequireUser>
        ),
      },
      {
        path: PAGE_PATHS.quickOrder,
        element: (
          <RequireUser>
            <QuickOrderPage />
          </RequireUser>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The shop's routes, inside whichever router the caller provides (BrowserRouter, or MemoryRouter in tests). */
export function AppRoutes({ tree = routes }: { tree?: RouteObject[] }) {
  return useRoutes(tree);
}
