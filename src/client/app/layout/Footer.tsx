import { Layout } from 'antd';
import { SHOP_NAME } from './shop';

export function Footer() {
  return (
    <Layout.Footer className="footer">
      © {new Date().getFullYear()} {SHOP_NAME}
    </Layout.Footer>
  );
}
