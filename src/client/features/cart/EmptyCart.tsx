import { Empty, Flex, Typography } from 'antd';
import { PAGE_PATHS } from '@shared/paths';
import { ButtonLink } from '@/components/ButtonLink';
import { QuickOrderLink } from './CartActions';

/** A cart with nothing in it, and the two ways to fill it. */
export function EmptyCart() {
  return (
    <Empty description={<span className="cart-empty-title">Ваша корзина пуста</span>}>
      <Typography.Paragraph type="secondary">Добавьте товары из каталога — они появятся здесь.</Typography.Paragraph>
      <Flex gap="small" justify="center" wrap>
        <ButtonLink type="primary" to={PAGE_PATHS.catalogue}>
          Перейти в каталог
        </ButtonLink>
        <QuickOrderLink />
      </Flex>
    </Empty>
  );
}
