import { MenuOutlined } from '@ant-design/icons';
import { ShellButton } from '@/components/ShellButton';

export function MenuButton(props: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return <ShellButton variant="text" aria-label="Меню" icon={<MenuOutlined aria-hidden style={{ fontSize: 20 }} />} {...props} />;
}
