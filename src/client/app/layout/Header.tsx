import { ShoppingCartOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { ShellButton } from '@/components/ShellButton';
import { useMinWidth } from '@/components/useMinWidth';
import { useCartCount } from '@/features/cart/useCartCount';
import { ColourModeSwitch } from '@/features/colourMode/ColourModeSwitch';
import { UserButton } from '@/features/session/UserButton';
import { MenuButton } from './MenuButton';
import { SHOP_NAME } from './shop';
import { useOpenCart } from './useOpenCart';

// Only phones need the menu, and antd's Dropdown with it: that code loads when the menu is first
// opened, not with the page (on a phone that would be a third of the page's script work).
const MobileMenu = lazy(() => import('./MobileMenu'));

function CartButton() {
  const count = useCartCount();
  const openCart = useOpenCart();
  return (
    <ShellButton variant="text" aria-label={`Корзина, товаров: ${count}`} onClick={openCart} className="cart-button">
      <span className="cart-icon">
        <ShoppingCartOutlined aria-hidden style={{ fontSize: 22 }} />
        {count > 0 && (
          <span className="cart-badge" aria-hidden>
            {count > 999 ? '999+' : count}
          </span>
        )}
      </span>
    </ShellButton>
  );
}

/** SPEC §2 fixed header; below the sm breakpoint (600px) its items fold into a hamburger menu. */
export function Header() {
  const mobile = !useMinWidth(600);
  // Controlled here so that a tap on the menu button before its code has arrived still opens it.
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const openMenu = () => {
    setMenuLoaded(true);
    setMenuOpen(true);
  };
  return (
    <header className="header">
      <Link to={PAGE_PATHS.home} className="logo" aria-label={`${SHOP_NAME} — на главную`}>
        {SHOP_NAME}
      </Link>
      {mobile && !menuLoaded && <MenuButton onClick={openMenu} />}
      {mobile && menuLoaded && (
        <Suspense fallback={<MenuButton onClick={openMenu} />}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} />
        </Suspense>
      )}
      {!mobile && (
        <nav className="header-nav" aria-label="Основное меню">
          <NavLink to={PAGE_PATHS.catalogue}>Каталог</NavLink>
          <NavLink to={PAGE_PATHS.about}>О компании</NavLink>
          <ColourModeSwitch />
          <CartButton />
          <UserButton />
        </nav>
      )}
    </header>
  );
}
