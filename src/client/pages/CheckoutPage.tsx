// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { BackToCart } from '@/features/checkout/BackToCart';
import { CheckoutForm } from '@/features/checkout/CheckoutForm';
import { parseCheckoutItems } from '@/features/checkout/parseItems';

export default function CheckoutPage() {
  const [searchParams] = useSearchParams();
  const items = parseCheckoutItems(searchParams.get('items'));
  return (
    <>
      <Typography.Title>Оформление заказа</Typography.Title>
      {items ? (
        <CheckoutForm items={items} />
      ) : (
        <BackToCart title="В заказе нет товаров" subTitle="Выберите товары в каталоге или в корзине." />
      )}
    </>
  );
}
