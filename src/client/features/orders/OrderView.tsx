import { ArrowLeftOutlined, FileExcelOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Popconfirm, Timeline, Typography } from 'antd';
import { Link } from 'react-router';
import type { BuyerOrder, Tracking } from '@shared/api';
import { formatLocalDate, formatLocalDateTime } from '@shared/dates';
import { marketplaceKitPaths } from '@shared/marketplace-kit';
import { PAGE_PATHS, productPath } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { MarketplaceKitButton } from '@/components/MarketplaceKitButton';
import { PageLoading } from '@/components/PageLoading';
import { OrderNotShown } from '@/components/OrderNotShown';
import { PageTitle } from '@/components/PageTitle';
import { StatusTag } from '@/components/StatusTag';
import { InvoiceDownload } from './OrderList';
import { OrderLinesTable } from '@/components/OrderLinesTable';
import { OneCLinesTable } from '@/components/OneCLinesTable';
import { useCancelOrderMutation, useExportOrderMutation, useGetOrderQuery } from './ordersApi';
import { RepeatOrder } from './RepeatOrder';

/** Who of the company placed it, contact, address and requisites: the address always, the rest when given. */
function Requisites({ order }: { order: BuyerOrder }) {
  const fields: [string, string | null][] = [
    // Who placed it, when that is not the contact named below.
    ['Оформил', order.placed_by && order.placed_by.name !== order.contact_name ? order.placed_by.name : null],
    ['Контактное лицо', order.contact_name],
    ['Телефон', order.contact_phone],
    ['Адрес доставки', order.address],
    ['Организация', order.company_name],
    ['ИНН', order.company_inn],
    ['КПП', order.company_kpp],
  ];
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, md: 2 }}
      items={fields.filter(([, value]) => value).map(([label, value]) => ({ key: label, label, children: value }))}
    />
  );
}

/**
 * «Повторить заказ», «Отменить заказ» while it may be, «Скачать в Excel», «Карточки для
 * маркетплейсов», and the invoice when issued.
 */
function Actions({ order, userId }: { order: BuyerOrder; userId: number }) {
  const { message } = App.useApp();
  const [cancelOrder, { isLoading: cancelling }] = useCancelOrderMutation();
  const [exportOrder, { isLoading: exporting }] = useExportOrderMutation();

  const cancel = async () => {
    try {
      await cancelOrder(order.id).unwrap();
      void message.success(`Заказ №${order.id} отменён`);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось отменить заказ. Попробуйте ещё раз.');
    }
  };

  const download = async () => {
    const result = await exportOrder({ userId, orderId: order.id });
    if ('error' in result) {
      void message.error(serverErrorDetail(result.error) ?? 'Не удалось скачать заказ. Попробуйте ещё раз.');
    }
  };

  return (
    <div className="order-actions">
      <RepeatOrder order={order} userId={userId} />
      <Button icon={<FileExcelOutlined aria-hidden />} loading={exporting} onClick={download}>
        Скачать в Excel
      </Button>
      <MarketplaceKitButton path={marketplaceKitPaths.order(userId, order.id)} />
      {order.can_cancel && (
        <Popconfirm
          title={`Отменить заказ №${order.id}?`}
          description="Товары вернутся на склад. Отмену нельзя отменить."
          okText="Да, отменить"
          cancelText="Нет"
          okButtonProps={{ danger: true }}
          onConfirm={cancel}
        >
          <Button danger loading={cancelling}>
            Отменить заказ
          </Button>
        </Popconfirm>
      )}
      {order.invoice && <InvoiceDownload orderId={order.id} invoice={order.invoice} />}
    </div>
  );
}

/** The carrier and the tracking number, the number a link to the carrier's page where it has one. */
function Shipment({ tracking }: { tracking: Tracking }) {
  return (
    <div>
      {tracking.carrier}
      {tracking.number && (
        <>
          , трек-номер{' '}
          {tracking.url ? (
            <Typography.Link href={tracking.url} target="_blank" rel="noopener noreferrer">
              {tracking.number}
            </Typography.Link>
          ) : (
            tracking.number
          )}
        </>
      )}
    </div>
  );
}

const back = (
  <Link to={PAGE_PATHS.profile}>
    <ArrowLeftOutlined aria-hidden /> Мои заказы
  </Link>
);

/** One of the buyer's orders: what was ordered, for whom and where, what happened to it, and what may be done now. */
export function OrderView({ userId, orderId }: { userId: number; orderId: number | null }) {
  const {
    data: order,
    isLoading,
    error,
  } = useGetOrderQuery({ userId, orderId: orderId ?? 0 }, { skip: orderId === null });
  if (isLoading) return <PageLoading />;
  if (!order) return <OrderNotShown badNumber={orderId === null} error={error} back={back} />;
  return (
    <>
      <PageTitle name={`Заказ №${order.id}`} />
      {back}
      <div className="order-head">
        <Typography.Title>
          Заказ №{order.id} от {formatLocalDate(order.created_at)}
        </Typography.Title>
        <StatusTag status={order.status} />
      </div>
      <Actions order={order} userId={userId} />
      <Requisites order={order} />
      <Typography.Title level={2} className="section-title">
        Товары
      </Typography.Title>
      <OrderLinesTable
        lines={order.lines}
        totalPrice={order.total_price}
        renderArticle={(art) => <Link to={productPath(art)}>{art}</Link>}
      />
      {order.one_c && <OneCLinesTable document={order.one_c} headingLevel={3} />}
      <Typography.Title level={2} className="section-title">
        История
      </Typography.Title>
      <Timeline
        items={order.history.map((entry, index) => ({
          key: index,
          content: (
            <>
              <div>{entry.status}</div>
              <Typography.Text type="secondary">{formatLocalDateTime(entry.at)}</Typography.Text>
              {entry.reason && <div>{entry.reason}</div>}
              {entry.tracking && <Shipment tracking={entry.tracking} />}
              {entry.comment && <div className="order-comment">Комментарий менеджера: {entry.comment}</div>}
            </>
          ),
        }))}
      />
    </>
  );
}
