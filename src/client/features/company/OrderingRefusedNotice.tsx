import { Alert } from 'antd';
import { useCompanyStanding } from './companyStanding';

/**
 * Why this account places no orders (an accountant's role, or the shop's block of the company): the
 * cart and the checkout show it where «Оформить заказ» would be; nothing when it may order.
 */
export function OrderingRefusedNotice() {
  const { company, orderRefusal } = useCompanyStanding();
  if (!orderRefusal) return null;
  return (
    <Alert type={company?.blocked ? 'warning' : 'info'} showIcon title={orderRefusal} style={{ marginBottom: 16 }} />
  );
}
