import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { PageLoading } from '@/components/PageLoading';
import { LazyAuthDialog } from './LazyAuthDialog';
import { ContactStrip } from './ContactStrip';
import { Footer } from './Footer';
import { Header } from './Header';

export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <div className="app-layout">
      <div className="top-bar">
        <Header />
        <ContactStrip />
      </div>
      <main className="content">
        {/* Keyed by path: a page that failed does not keep the next page blank. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <LazyAuthDialog />
    </div>
  );
}
