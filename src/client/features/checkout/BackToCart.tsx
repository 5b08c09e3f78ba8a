import { Result } from 'antd';
import { PAGE_PATHS } from '@shared/paths';
import { ButtonLink } from '@/components/ButtonLink';

/** What the checkout shows instead of a form it cannot fill: the reason and the way back. */
export function BackToCart({
  title,
  subTitle = 'Вернитесь в корзину и оформите заказ ещё раз.',
}: {
  title: string;
  subTitle?: string;
}) {
  return (
    <Result
      status="warning"
      title={title}
      subTitle={subTitle}
      extra={
        <ButtonLink type="primary" to={PAGE_PATHS.cart}>
          Вернуться в корзину
        </ButtonLink>
      }
    />
  );
}

/** A checkout with nothing to order. */
export const NoGoods = () => (
  <BackToCart title="В заказе нет товаров" subTitle="Выберите товары в каталоге или в корзине." />
);
