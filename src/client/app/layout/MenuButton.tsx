import { MenuOutlined } from '@ant-design/icons';
import { Button } from 'antd';

export function MenuButton() {
  return <Button type="text" aria-label="Меню" icon={<MenuOutlined style={{ fontSize: 20 }} />} />;
}
