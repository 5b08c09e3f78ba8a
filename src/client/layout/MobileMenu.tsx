// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Dropdown, type MenuProps } from 'antd';
import type { ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { useCartCount } from '@/features/cart/useCartCount';
import ColourModeSwitch from '@/features/colourMode/ColourModeSwitch';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { selectUser } from '@/features/session/sessionSlice';
import { ADMIN_LINK_LABEL, emailPrefix } from '@/features/session/UserButton';
import { useLogout } from '@/features/session/useLogout';
import { useOpenCart } from './useOpenCart';

interface MobileMenuProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The menu button, the same element the header shows before this module has arrived. */
  children: ReactElement;
}

/** The header's items below 600px (SPEC §2), with the colour-mode switch under them. */
export default function MobileMenu({ open, onOpenChange: setOpen, children }: MobileMenuProps) {
  const user = useAppSelector(selectUser);
  const count = useCartCount();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const openCart = useOpenCart();
  const logout = useLogout();
  const items: MenuProps['items'] = [
    { key: 'catalogue', label: 'Каталог', onClick: () => navigate(PAGE_PATHS.catalogue) },
    { key: 'quick-order', label: 'Быстрый заказ', onClick: () => navigate(PAGE_PATHS.quickOrder) },
    { key: 'about', label: 'О компании', onClick: () => navigate(PAGE_PATHS.about) },
    { key: 'cart', label: count > 0 ? `Корзина (${count})` : 'Корзина', onClick: openCart },
    ...(user
      ? [
          { key: 'profile', label: emailPrefix(user.email), onClick: () => navigate(PAGE_PATHS.profile) },
          ...(user.role === 'manager'
            ? [{ key: 'admin', label: ADMIN_LINK_LABEL, onClick: () => navigate(PAGE_PATHS.admin) }]
            : []),
          { key: 'logout', label: 'Выйти', onClick: logout },
        ]
      : [{ key: 'login', label: 'Войти', onClick: () => dispatch(authDialogOpened('login')) }]),
  ];
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      menu={{ items, onClick: () => setOpen(false) }}
      trigger={['click']}
      placement="bottomRight"
      // Inside the header, so the open menu belongs to its landmark (banner) rather than to none.
      getPopupContainer={(trigger) => trigger.parentElement ?? document.body}
      popupRender={(menu) => (
        <div className="mobile-menu">
          {menu}
          <div className="mobile-menu-theme">
            <ColourModeSwitch withLabels />
          </div>
        </div>
      )}
    >
      {children}
    </Dropdown>
  );
}
