import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
import { authDialogOpened } from './authDialogSlice';
import { selectSessionInitialised, selectUser } from './sessionSlice';
import { useLogout } from './useLogout';

export const emailPrefix = (email: string) => email.split('@')[0] ?? email;

/** SPEC §2: the e-mail prefix leading to /profile, or 'Войти' opening the dialog. */
export function UserButton() {
  const user = useAppSelector(selectUser);
  const initialised = useAppSelector(selectSessionInitialised);
  const dispatch = useAppDispatch();
  const logout = useLogout();

  if (user) {
    return (
      <span className="user-menu">
        <Link to="/profile">
          <Button type="text" icon={<UserOutlined />} className="user-button">
            {emailPrefix(user.email)}
          </Button>
        </Link>
        <Button type="text" icon={<LogoutOutlined />} aria-label="Выйти" title="Выйти" onClick={logout} />
      </span>
    );
  }
  return (
    <Button type="text" icon={<UserOutlined />} loading={!initialised} onClick={() => dispatch(authDialogOpened('login'))}>
      Войти
    </Button>
  );
}
