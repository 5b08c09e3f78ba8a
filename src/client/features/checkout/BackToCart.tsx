import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';

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
        <Link to={PAGE_PATHS.cart}>
          <Button type="primary">Вернуться в корзину</Button>
        </Link>
      }
    />
  );
}
