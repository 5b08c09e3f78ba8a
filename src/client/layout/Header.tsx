import { MenuOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Badge, Button, Flex } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { SHOP_NAME } from '@shared/page-titles';
import { PAGE_PATHS } from '@shared/paths';
import { useAfterFirstPaint } from '@/components/useAfterFirstPaint';
import { useMinWidth } from '@/components/useMinWidth';
import { useCartCount } from '@/features/cart/useCartCount';
import { UserButton } from '@/features/session/UserButton';
import { useOpenCart } from './useOpenCart';

// Only phones need the menu, and antd's Dropdown and Menu with it: that code loads when the menu is
// first opened, not with the page (about 20 KB gzip of the first load otherwise).
// The search field is new to the header and the first load had no room left for it (its 200 KB
// budget): it arrives just after the first paint, into a place kept for it, and its suggestions
// only when used.
const SearchBox = lazy(() => import(/* webpackChunkName: "search-box" */ '@/features/search/SearchBox'));
const MobileMenu = lazy(() => import(/* webpackChunkName: "mobile-menu" */ './MobileMenu'));
// The colour-mode switch is antd's Radio group, which has no room in the first load either: it
// arrives just after the first paint, into a place kept for it.
const ColourModeSwitch = lazy(
  () => import(/* webpackChunkName: "colour-mode-switch" */ '@/features/colourMode/ColourModeSwitch'),
);

function PhoneMenu() {
  // Controlled here, so that a tap before the menu's code has arrived still opens it.
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const button = (
    <Button
      type="text"
      aria-label="Меню"
      icon={<MenuOutlined aria-hidden style={{ fontSize: 20 }} />}
      // Once the Dropdown is there, its trigger opens and closes the menu.
      onClick={
        loaded
          ? undefined
          : () => {
              setLoaded(true);
              setOpen(true);
            }
      }
    />
  );
  if (!loaded) return button;
  return (
    <Suspense fallback={button}>
      <MobileMenu open={open} onOpenChange={setOpen}>
        {button}
      </MobileMenu>
    </Suspense>
  );
}

function CartButton() {
  const count = useCartCount();
  const openCart = useOpenCart();
  return (
    <Button type="text" aria-label={`Корзина, товаров: ${count}`} onClick={openCart} className="cart-button">
      <Badge count={count} overflowCount={999} size="small" aria-hidden>
        <ShoppingCartOutlined aria-hidden style={{ fontSize: 22 }} />
      </Badge>
    </Button>
  );
}

/** SPEC §2 fixed header with the search; below the sm breakpoint (600px) its links fold into a hamburger menu. */
export function Header() {
  const mobile = !useMinWidth(600);
  const painted = useAfterFirstPaint();
  // Both lazy parts are asked for after the first paint, so that neither is on its path.
  const searchPlace = <div className="search-box" />;
  const switchPlace = <div className="colour-switch-placeholder" />;
  return (
    <header className="header">
      <Link to={PAGE_PATHS.home} className="logo" aria-label={`${SHOP_NAME} — на главную`}>
        {SHOP_NAME}
      </Link>
      {/* On phones too, between the logo and the menu: a buyer who knows the article goes straight to it. */}
      <Suspense fallback={searchPlace}>{painted ? <SearchBox /> : searchPlace}</Suspense>
      {mobile ? (
        // The cart stays one tap away on a phone too, its count on it; the rest is in the menu.
        <Flex align="center" className="header-phone-actions">
          <CartButton />
          <PhoneMenu />
        </Flex>
      ) : (
        <Flex component="nav" aria-label="Основное меню" align="center" gap="small" className="header-nav">
          <NavLink to={PAGE_PATHS.catalogue}>Каталог</NavLink>
          <NavLink to={PAGE_PATHS.quickOrder} className="quick-order-link">
            Быстрый заказ
          </NavLink>
          <NavLink to={PAGE_PATHS.about}>О компании</NavLink>
          <Suspense fallback={switchPlace}>{painted ? <ColourModeSwitch /> : switchPlace}</Suspense>
          <CartButton />
          <UserButton />
        </Flex>
      )}
    </header>
  );
}
