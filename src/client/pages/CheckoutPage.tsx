// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { NoGoods } from '@/features/checkout/BackToCart';
import { CartCheckout, ItemsCheckout } from '@/features/checkout/CheckoutSources';
import { parseCheckoutItems } from '@/features/checkout/parseItems';
import { OrderingRefusedNotice } from '@/features/company/OrderingRefusedNotice';
import { useCompanyStanding } from '@/features/company/companyStanding';
import { CompanyFields, ContactFields } from '@/features/requisites/RequisiteFields';
import { ConfirmEmailNotice } from '@/features/session/ConfirmEmailNotice';

const REQUISITE_PARTS = { contact: <ContactFields required />, company: <CompanyFields /> };

/** The checkout; an account that may not order (an accountant, a blocked company) is told why instead. */
function Checkout() {
  const [searchParams] = useSearchParams();
  const { known, orderRefusal } = useCompanyStanding();
  if (!known) return <PageLoading />;
  if (orderRefusal) return <OrderingRefusedNotice />;
  const raw = searchParams.get('items');
  const items = parseCheckoutItems(raw);
  // Without `items` the server cart is checked out (a cart too big for the address).
  if (raw === null) return <CartCheckout requisiteFields={REQUISITE_PARTS} />;
  return items ? <ItemsCheckout items={items} requisiteFields={REQUISITE_PARTS} /> : <NoGoods />;
}

export default function CheckoutPage() {
  return (
    <>
      <PageTitle name="Оформление заказа" />
      <Typography.Title>Оформление заказа</Typography.Title>
      <ConfirmEmailNotice />
      <Checkout />
    </>
  );
}
