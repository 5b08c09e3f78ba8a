// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { App, Typography } from 'antd';
import { PageTitle } from '@/components/PageTitle';
import { useAppSelector } from '@/hooks/reduxHooks';
import { CartView } from '@/features/cart/CartView';
import { OrderingRefusedNotice } from '@/features/company/OrderingRefusedNotice';
import { ConfirmEmailNotice } from '@/features/session/ConfirmEmailNotice';
import { selectUser } from '@/features/session/sessionSlice';

export default function CartPage() {
  const user = useAppSelector(selectUser);
  // App: the cart's toasts (a save that failed) through App.useApp; see app/theme.tsx.
  return (
    <App component={false}>
      <PageTitle name="Корзина" />
      <Typography.Title>Корзина</Typography.Title>
      <ConfirmEmailNotice />
      <OrderingRefusedNotice />
      {user && <CartView userId={user.id} />}
    </App>
  );
}
