import { useNavigate } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { selectUser } from '@/features/session/sessionSlice';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';

/** A visitor has no cart: asking for it means asking to log in. */
export function useOpenCart(): () => void {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return () => (user ? navigate(PAGE_PATHS.cart) : dispatch(authDialogOpened('login')));
}
