import { Button, Empty } from 'antd';
import { useMemo } from 'react';
import { shallowEqual } from 'react-redux';
import { useAppSelector } from '@/hooks/reduxHooks';
import { PageLoading } from '@/components/PageLoading';
import { useOrderLimits } from '@/features/session/orderLimits';
import { CartActions } from './CartActions';
import { useGetCartQuery } from './cartApi';
import { selectDeletedLines } from './cartEditsSlice';
import { CartList } from './CartList';
import { ConnectionLostNotice, SaveFailureNotice } from './CartNotices';
import { CartSummary } from './CartSummary';
import { EmptyCart } from './EmptyCart';
import { useCartSync } from './useCartSync';
import './cart.css';

export function CartView({ userId }: { userId: number }) {
  useCartSync(userId);
  // The buyer's limits, fetched once for every line (selectLineLimits reads them).
  useOrderLimits();
  return (
    <>
      <SaveFailureNotice />
      <ConnectionLostNotice />
      <CartContent userId={userId} />
    </>
  );
}

function CartContent({ userId }: { userId: number }) {
  // Not isFetching: the list need not re-render when a reload starts and ends, only when data comes.
  const {
    data: cart,
    isLoading,
    isError,
    refetch,
  } = useGetCartQuery(userId, {
    refetchOnFocus: true,
    selectFromResult: ({ data, isLoading, isError }) => ({ data, isLoading, isError }),
  });
  // Which lines are listed changes only with deletions; quantities are read by the lines themselves.
  const deleted = useAppSelector(selectDeletedLines, shallowEqual);
  const items = useMemo(() => (cart?.items ?? []).filter((item) => !deleted.includes(item.id)), [cart, deleted]);

  if (isLoading) return <PageLoading />;
  // Only with nothing to show: a failed reload (offline, say) leaves the last cart on screen.
  if (isError && !cart) {
    return (
      <Empty description="Не удалось загрузить корзину">
        <Button onClick={refetch}>Повторить</Button>
      </Empty>
    );
  }
  if (items.length === 0) return <EmptyCart />;

  return (
    <>
      <CartActions userId={userId} />
      <div className="cart">
        <CartList items={items} />
        <CartSummary items={items} minOrderSum={cart?.min_order_sum ?? 0} />
      </div>
    </>
  );
}
