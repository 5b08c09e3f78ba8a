// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Result, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { ButtonLink } from '@/components/ButtonLink';
import { PageTitle } from '@/components/PageTitle';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useGetOrdersQuery } from '@/features/orders/ordersApi';
import { selectUser } from '@/features/session/sessionSlice';

/** The `?order=` of the address, when it names one of the buyer's own orders. */
function usePlacedOrderId(): number | null {
  const user = useAppSelector(selectUser);
  const wanted = Number(useSearchParams()[0].get('order'));
  const known = Number.isInteger(wanted) && wanted > 0;
  const { data } = useGetOrdersQuery({ userId: user?.id ?? 0 }, { skip: !user || !known });
  return data?.orders.some((order) => order.id === wanted) ? wanted : null;
}

export default function OrderSuccessPage() {
  const orderId = usePlacedOrderId();
  return (
    <Result
      status="success"
      title={<Typography.Title>Заказ принят!</Typography.Title>}
      subTitle={
        <>
          {orderId !== null && (
            <Typography.Paragraph strong style={{ fontSize: 18 }}>
              Номер заказа: {orderId}
            </Typography.Paragraph>
          )}
          Ваш заказ отправлен в обработку. Менеджер свяжется с вами и выставит счёт на оплату.
        </>
      }
      extra={[
        // React moves the <title> to the head wherever it is rendered; Result has no other place for it.
        <PageTitle key="title" name="Заказ принят" />,
        <ButtonLink key="home" to={PAGE_PATHS.home}>
          На главную
        </ButtonLink>,
        <ButtonLink key="profile" type="primary" to={PAGE_PATHS.profile}>
          Мои заказы
        </ButtonLink>,
      ]}
    />
  );
}
