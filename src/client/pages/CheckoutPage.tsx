// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PageTitle } from '@/components/PageTitle';
import { BackToCart } from '@/features/checkout/BackToCart';
import { CheckoutForm } from '@/features/checkout/CheckoutForm';
import { parseCheckoutItems } from '@/features/checkout/parseItems';
import { RequisiteFields } from '@/features/requisites/RequisiteFields';
import { ConfirmEmailNotice } from '@/features/session/ConfirmEmailNotice';

export default function CheckoutPage() {
  const [searchParams] = useSearchParams();
  const items = parseCheckoutItems(searchParams.get('items'));
  return (
    <>
      <PageTitle name="Оформление заказа" />
      <Typography.Title>Оформление заказа</Typography.Title>
      <ConfirmEmailNotice />
      {items ? (
        <CheckoutForm items={items} requisiteFields={<RequisiteFields contactRequired />} />
      ) : (
        <BackToCart title="В заказе нет товаров" subTitle="Выберите товары в каталоге или в корзине." />
      )}
    </>
  );
}
