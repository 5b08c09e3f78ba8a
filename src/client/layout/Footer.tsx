import { SHOP_NAME } from '@shared/page-titles';

export function Footer() {
  return (
    <footer className="footer">
      © {new Date().getFullYear()} {SHOP_NAME}
    </footer>
  );
}
