import { Tag, theme } from 'antd';
import { DELIVERED_STATUS, type OrderStatus } from '@shared/order-statuses';

const CANCELLED: OrderStatus = 'Отменён';

/**
 * An order's status, the same in the buyer's profile and the back office: green for «Доставлен»
 * (SPEC §2), grey for a cancelled one, and solid, white on the theme's primary, for one under way
 * (antd tints a custom colour's background to a light pink in both themes, and on it the dark
 * theme's primary reads at 4.3:1). These are the tags known to pass contrast in both themes.
 * `label` is what the tag says when not just the status (the order cards' «Статус: …»).
 */
export function StatusTag({ status, label = status }: { status: OrderStatus; label?: string }) {
  const { token } = theme.useToken();
  if (status === DELIVERED_STATUS) return <Tag color="success">{label}</Tag>;
  if (status === CANCELLED) return <Tag>{label}</Tag>;
  return (
    <Tag color={token.colorPrimary} variant="solid">
      {label}
    </Tag>
  );
}
