import { useNavigate } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { useLogoutMutation } from './authApi';

/** Logs out and leaves pages that only a logged-in user may see. */
export function useLogout(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const navigate = useNavigate();
  return async () => {
    await logout();
    navigate(PAGE_PATHS.home, { replace: true });
  };
}
