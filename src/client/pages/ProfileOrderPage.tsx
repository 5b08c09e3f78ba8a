// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import '../theme/antd-order.generated.css';
import './ProfilePage.css';
import { App } from 'antd';
import { useParams } from 'react-router';
import { useAppSelector } from '@/hooks/reduxHooks';
import { OrderView } from '@/features/orders/OrderView';
import { selectUser } from '@/features/session/sessionSlice';

/** /profile/orders/{id}: one of the buyer's orders; anything but an id is not found. */
export default function ProfileOrderPage() {
  const user = useAppSelector(selectUser);
  const { id } = useParams();
  if (!user) return null;
  const orderId = /^[1-9]\d{0,9}$/.test(id ?? '') ? Number(id) : null;
  // App: the page's toasts and the repeat's question; see app/theme.tsx.
  return (
    <App component={false}>
      <OrderView userId={user.id} orderId={orderId} />
    </App>
  );
}
