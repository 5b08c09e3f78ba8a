import { SHOP_NAME } from './shop';

export function Footer() {
  return (
    <footer className="footer">
      © {new Date().getFullYear()} {SHOP_NAME}
    </footer>
  );
}
