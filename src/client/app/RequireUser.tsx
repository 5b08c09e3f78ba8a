import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { UserRole } from '@shared/user-roles';
import { PAGE_PATHS } from '@shared/paths';
import { PageLoading } from '@/components/PageLoading';
import { selectSessionInitialised, selectUser } from '@/features/session/sessionSlice';
import { useAppSelector } from '@/hooks/reduxHooks';

interface RequireUserProps {
  children: ReactNode;
  /** Only this role may see the page (the back office: 'manager'); anyone else is sent home too. */
  role?: UserRole;
}

/**
 * SPEC §6: /cart, /profile and /checkout send a visitor home, but only once the session is known;
 * while it is being restored a logged-in user sees a spinner, never a redirect. The server checks
 * the role again on every request: this only keeps a buyer from a page that would refuse them.
 */
export function RequireUser({ children, role }: RequireUserProps) {
  const user = useAppSelector(selectUser);
  const initialised = useAppSelector(selectSessionInitialised);
  if (user) return role && user.role !== role ? <Navigate to={PAGE_PATHS.home} replace /> : children;
  if (!initialised) return <PageLoading />;
  return <Navigate to={PAGE_PATHS.home} replace />;
}
