import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { PageLoading } from '@/components/PageLoading';
import { selectSessionInitialised, selectUser } from '@/features/session/sessionSlice';
import { useAppSelector } from '@/hooks/reduxHooks';

/**
 * SPEC §6: /cart, /profile and /checkout send a visitor home, but only once the session is known;
 * while it is being restored a logged-in user sees a spinner, never a redirect.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const user = useAppSelector(selectUser);
  const initialised = useAppSelector(selectSessionInitialised);
  if (user) return children;
  if (!initialised) return <PageLoading />;
  return <Navigate to={PAGE_PATHS.home} replace />;
}
