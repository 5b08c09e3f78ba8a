// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PageTitle } from '@/components/PageTitle';
import { NoGoods } from '@/features/checkout/BackToCart';
import { CartCheckout, ItemsCheckout } from '@/features/checkout/CheckoutSources';
import { parseCheckoutItems } from '@/features/checkout/parseItems';
import { RequisiteFields } from '@/features/requisites/RequisiteFields';
import { ConfirmEmailNotice } from '@/features/session/ConfirmEmailNotice';

export default function CheckoutPage() {
  const [searchParams] = useSearchParams();
  const raw = searchParams.get('items');
  const items = parseCheckoutItems(raw);
  const requisiteFields = <RequisiteFields contactRequired />;
  return (
    <>
      <PageTitle name="Оформление заказа" />
      <Typography.Title>Оформление заказа</Typography.Title>
      <ConfirmEmailNotice />
      {/* Without `items` the server cart is checked out (a cart too big for the address). */}
      {raw === null ? (
        <CartCheckout requisiteFields={requisiteFields} />
      ) : items ? (
        <ItemsCheckout items={items} requisiteFields={requisiteFields} />
      ) : (
        <NoGoods />
      )}
    </>
  );
}
