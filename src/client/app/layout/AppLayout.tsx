import { Layout } from 'antd';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { PageSpinner } from '@/components/PageSpinner';
import { AuthDialog } from '@/features/session/AuthDialog';
import { ContactStrip } from './ContactStrip';
import { Footer } from './Footer';
import { Header } from './Header';

export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <Layout className="app-layout">
      <div className="top-bar">
        <Header />
        <ContactStrip />
      </div>
      <Layout.Content className="content">
        {/* Keyed by path: a page that failed does not keep the next page blank. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Layout.Content>
      <Footer />
      <AuthDialog />
    </Layout>
  );
}
