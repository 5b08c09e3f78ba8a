// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { useAppSelector } from '@/hooks/reduxHooks';
import { CartView } from '@/features/cart/CartView';
import { selectUser } from '@/features/session/sessionSlice';

export default function CartPage() {
  const user = useAppSelector(selectUser);
  return (
    <>
      <h1 className="page-title">Корзина</h1>
      {user && <CartView userId={user.id} />}
    </>
  );
}
