import { useNavigate } from 'react-router';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { selectUser } from '@/features/session/sessionSlice';
import { useAppDispatch, useAppSelector } from '../withTypes';

/** A visitor has no cart: asking for it means asking to log in. */
export function useOpenCart(): () => void {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return () => (user ? navigate('/cart') : dispatch(authDialogOpened('login')));
}
