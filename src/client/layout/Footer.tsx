import { Link } from 'react-router';
import { SHOP_NAME } from '@shared/page-titles';
import { PAGE_PATHS } from '@shared/paths';

export function Footer() {
  return (
    <footer className="footer">
      © {new Date().getFullYear()} {SHOP_NAME} · <Link to={PAGE_PATHS.privacy}>Политика конфиденциальности</Link>
    </footer>
  );
}
