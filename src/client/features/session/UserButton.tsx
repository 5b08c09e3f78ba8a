import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { ButtonLink } from '@/components/ButtonLink';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { authDialogOpened } from './authDialogSlice';
import { selectSessionInitialised, selectUser } from './sessionSlice';
import { useLogout } from './useLogout';

export const emailPrefix = (email: string) => email.split('@')[0] ?? email;

export const ADMIN_LINK_LABEL = 'Панель менеджера';

/**
 * A manager's way into the back office: a real link (opens in a new tab too), drawn as the
 * header's text buttons. Words, not an icon: an icon's drawing would be 1 KB gzip of every
 * buyer's first load, which is at its budget.
 */
function AdminLink() {
  return (
    <ButtonLink type="text" to={PAGE_PATHS.admin}>
      {ADMIN_LINK_LABEL}
    </ButtonLink>
  );
}

/** SPEC §2: the e-mail prefix leading to /profile, or 'Войти' opening the dialog; a manager also gets the back office's link. */
export function UserButton() {
  const user = useAppSelector(selectUser);
  const initialised = useAppSelector(selectSessionInitialised);
  const dispatch = useAppDispatch();
  const logout = useLogout();
  const navigate = useNavigate();

  if (user) {
    return (
      <span className="user-menu">
        {user.role === 'manager' && <AdminLink />}
        {/* A long prefix is cut short with an ellipsis where the header is narrow; hovering shows it whole. */}
        <Button
          type="text"
          icon={<UserOutlined aria-hidden />}
          className="user-button"
          title={emailPrefix(user.email)}
          onClick={() => navigate(PAGE_PATHS.profile)}
        >
          <span className="user-button-name">{emailPrefix(user.email)}</span>
        </Button>
        <Button type="text" icon={<LogoutOutlined aria-hidden />} aria-label="Выйти" title="Выйти" onClick={logout} />
      </span>
    );
  }
  return (
    <Button
      type="text"
      icon={<UserOutlined aria-hidden />}
      disabled={!initialised}
      aria-busy={!initialised}
      onClick={() => dispatch(authDialogOpened('login'))}
    >
      Войти
    </Button>
  );
}
