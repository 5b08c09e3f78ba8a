import { Tag, theme } from 'antd';
import { DELIVERED_STATUS, type OrderStatus } from '@shared/api';

const CANCELLED: OrderStatus = 'Отменён';

/**
 * An order's status as the buyer's order card draws it (green for «Доставлен», solid primary for
 * one under way), and a cancelled one in grey: these are the tags known to pass contrast in both themes.
 */
export function StatusTag({ status }: { status: OrderStatus }) {
  const { token } = theme.useToken();
  if (status === DELIVERED_STATUS) return <Tag color="success">{status}</Tag>;
  if (status === CANCELLED) return <Tag>{status}</Tag>;
  return (
    <Tag color={token.colorPrimary} variant="solid">
      {status}
    </Tag>
  );
}
