import { MenuOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Badge, Button, Dropdown, Grid, Layout, type MenuProps } from 'antd';
import { Link, NavLink, useNavigate } from 'react-router';
import { useCartCount } from '@/features/cart/useCartCount';
import { ColourModeSwitch } from '@/features/colourMode/ColourModeSwitch';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { selectUser } from '@/features/session/sessionSlice';
import { emailPrefix, UserButton } from '@/features/session/UserButton';
import { useLogout } from '@/features/session/useLogout';
import { useAppDispatch, useAppSelector } from '../withTypes';
import { SHOP_NAME } from './shop';

function useOpenCart(): () => void {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // A visitor has no cart: asking for it means asking to log in.
  return () => (user ? navigate('/cart') : dispatch(authDialogOpened('login')));
}

function CartButton() {
  const count = useCartCount();
  const openCart = useOpenCart();
  return (
    <Button type="text" aria-label={`Корзина, товаров: ${count}`} onClick={openCart} className="cart-button">
      <Badge count={count} overflowCount={999} size="small">
        <ShoppingCartOutlined style={{ fontSize: 22 }} />
      </Badge>
    </Button>
  );
}

function MobileMenu() {
  const user = useAppSelector(selectUser);
  const count = useCartCount();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const openCart = useOpenCart();
  const logout = useLogout();
  const items: MenuProps['items'] = [
    { key: 'catalog', label: 'Каталог', onClick: () => navigate('/catalog') },
    { key: 'about', label: 'О компании', onClick: () => navigate('/about') },
    { key: 'cart', label: count > 0 ? `Корзина (${count})` : 'Корзина', onClick: openCart },
    ...(user
      ? [
          { key: 'profile', label: emailPrefix(user.email), onClick: () => navigate('/profile') },
          { key: 'logout', label: 'Выйти', onClick: logout },
        ]
      : [{ key: 'login', label: 'Войти', onClick: () => dispatch(authDialogOpened('login')) }]),
  ];
  return (
    <Dropdown
      menu={{ items }}
      trigger={['click']}
      placement="bottomRight"
      popupRender={(menu) => (
        <div className="mobile-menu">
          {menu}
          <div className="mobile-menu-theme">
            <ColourModeSwitch withLabels />
          </div>
        </div>
      )}
    >
      <Button type="text" aria-label="Меню" icon={<MenuOutlined style={{ fontSize: 20 }} />} />
    </Dropdown>
  );
}

/** SPEC §2 fixed header; below the sm breakpoint (600px) its items fold into a hamburger menu. */
export function Header() {
  const mobile = !Grid.useBreakpoint().sm;
  return (
    <Layout.Header className="header">
      <Link to="/" className="logo" aria-label={`${SHOP_NAME} — на главную`}>
        {SHOP_NAME}
      </Link>
      {mobile ? (
        <MobileMenu />
      ) : (
        <nav className="header-nav" aria-label="Основное меню">
          <NavLink to="/catalog">Каталог</NavLink>
          <NavLink to="/about">О компании</NavLink>
          <ColourModeSwitch />
          <CartButton />
          <UserButton />
        </nav>
      )}
    </Layout.Header>
  );
}
