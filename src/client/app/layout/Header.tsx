import { ShoppingCartOutlined } from '@ant-design/icons';
import { Button, Grid } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { useCartCount } from '@/features/cart/useCartCount';
import { ColourModeSwitch } from '@/features/colourMode/ColourModeSwitch';
import { UserButton } from '@/features/session/UserButton';
import { MenuButton } from './MenuButton';
import { SHOP_NAME } from './shop';
import { useOpenCart } from './useOpenCart';

// Only phones need the menu, and antd's Dropdown with it: that code loads when it is first shown.
const MobileMenu = lazy(() => import('./MobileMenu'));

function CartButton() {
  const count = useCartCount();
  const openCart = useOpenCart();
  return (
    <Button type="text" aria-label={`Корзина, товаров: ${count}`} onClick={openCart} className="cart-button">
      <span className="cart-icon">
        <ShoppingCartOutlined aria-hidden style={{ fontSize: 22 }} />
        {count > 0 && (
          <span className="cart-badge" aria-hidden>
            {count > 999 ? '999+' : count}
          </span>
        )}
      </span>
    </Button>
  );
}

/** SPEC §2 fixed header; below the sm breakpoint (600px) its items fold into a hamburger menu. */
export function Header() {
  const mobile = !Grid.useBreakpoint().sm;
  return (
    <header className="header">
      <Link to="/" className="logo" aria-label={`${SHOP_NAME} — на главную`}>
        {SHOP_NAME}
      </Link>
      {mobile ? (
        <Suspense fallback={<MenuButton />}>
          <MobileMenu />
        </Suspense>
      ) : (
        <nav className="header-nav" aria-label="Основное меню">
          <NavLink to="/catalog">Каталог</NavLink>
          <NavLink to="/about">О компании</NavLink>
          <ColourModeSwitch />
          <CartButton />
          <UserButton />
        </nav>
      )}
    </header>
  );
}
