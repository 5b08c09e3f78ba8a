import { ArrowLeftOutlined, DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Flex, Input, Popconfirm, Select, Switch, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useRouteId } from '../routeId';
import { formatCalendarDay, formatMoscowDateTimeNumeric } from '@shared/dates';
import { DELETED_PERSONAL_DATA } from '@shared/account';
import type { AdminOrder, Tracking } from '@shared/api';
import type { OrderStatus } from '@shared/order-statuses';
import { CARRIER_NAMES, TRACKING_NUMBER_MAX, type CarrierName } from '@shared/carriers';
import { formatRubles } from '@shared/money';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { OrderNotShown } from '@/components/OrderNotShown';
import { OrderLinesTable } from '@/components/OrderLinesTable';
import { OneCLinesTable } from '@/components/OneCLinesTable';
import { PageTitle } from '@/components/PageTitle';
import { adminCompanyPath, adminPath } from '../adminPaths';
import {
  useChangeOrderStatusMutation,
  useFetchInvoiceMutation,
  useGetAdminOrderQuery,
  useIssueInvoiceMutation,
  useSetBuyerTrustedMutation,
} from '../adminApi';
import type { FromQueue } from './OrdersPage';
import { StatusTag } from '@/components/StatusTag';

const CANCELLED: OrderStatus = 'Отменён';
const SHIPPED: OrderStatus = 'Отправлен';

const CARRIER_OPTIONS = CARRIER_NAMES.map((name) => ({ value: name, label: name }));

/** The buttons' words for the steps a manager takes; «Ожидает оплаты» comes only with the invoice. */
const STEP_LABELS: Partial<Record<OrderStatus, string>> = {
  Оплачен: 'Отметить оплату',
  Отправлен: 'Отметить отправку',
  Доставлен: 'Отметить доставку',
  Отменён: 'Отменить заказ',
};
const stepLabel = (status: OrderStatus) => STEP_LABELS[status] ?? `Перевести в «${status}»`;

const invoiceName = (invoice: NonNullable<AdminOrder['invoice']>) =>
  `№ ${invoice.number} от ${formatCalendarDay(invoice.date)}`;

/**
 * Whether the limits of a new buyer (docs/decisions.md, «Caps on the unproven») fall on the order's
 * buyer: a paid order lifts them for good; a manager may lift them for a buyer known otherwise.
 */
function BuyerTrust({ order, buyer }: { order: AdminOrder; buyer: NonNullable<AdminOrder['user']> }) {
  const { message } = App.useApp();
  const [setTrusted, { isLoading }] = useSetBuyerTrustedMutation();
  if (buyer.has_paid_order)
    return <Typography.Text>Есть оплаченный заказ: ограничения новых покупателей сняты</Typography.Text>;
  const toggle = async (trusted: boolean) => {
    try {
      await setTrusted({ buyerId: buyer.id, trusted, orderId: order.id }).unwrap();
    } catch (error) {
      message.error(serverErrorDetail(error) ?? 'Не удалось сохранить отметку');
    }
  };
  return (
    <Flex vertical gap={4} align="start">
      <Switch
        checked={buyer.trusted}
        loading={isLoading}
        onChange={toggle}
        aria-describedby={`buyer-trust-${order.id}`}
        aria-label="Проверенный покупатель"
      />
      <Typography.Text type="secondary" id={`buyer-trust-${order.id}`}>
        {buyer.trusted
          ? 'Ограничения новых покупателей сняты: заказывает любое количество в пределах остатка'
          : 'Новый покупатель: ограничены доля остатка в заказе, число неоплаченных заказов и срок резерва'}
      </Typography.Text>
    </Flex>
  );
}

function OrderDetails({ order }: { order: AdminOrder }) {
  const inn = [order.company_inn, order.company_kpp].filter(Boolean).join(' / ');
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, md: 2 }}
      items={[
        { key: 'email', label: 'Покупатель', children: order.user?.email ?? DELETED_PERSONAL_DATA },
        ...(order.user
          ? [
              {
                key: 'trust',
                label: 'Проверенный покупатель',
                children: <BuyerTrust order={order} buyer={order.user} />,
              },
            ]
          : []),
        {
          key: 'buyer-company',
          label: 'Компания покупателя',
          children: order.company ? <Link to={adminCompanyPath(order.company.id)}>{order.company.name}</Link> : '—',
        },
        { key: 'placed-by', label: 'Оформил', children: order.placed_by ?? '—' },
        { key: 'created', label: 'Создан', children: formatMoscowDateTimeNumeric(order.created_at) },
        { key: 'company', label: 'Юрлицо', children: order.company_name ?? '—' },
        { key: 'inn', label: 'ИНН / КПП', children: inn || '—' },
        { key: 'contact', label: 'Контактное лицо', children: order.contact_name ?? '—' },
        { key: 'phone', label: 'Телефон', children: order.contact_phone ?? '—' },
        { key: 'address', label: 'Адрес доставки', children: order.address, span: 'filled' },
        { key: 'status', label: 'Статус', children: <StatusTag status={order.status} /> },
        { key: 'total', label: 'Сумма', children: formatRubles(order.total_price) },
        { key: 'invoice', label: 'Счёт', children: order.invoice ? invoiceName(order.invoice) : 'не выставлен' },
      ]}
    />
  );
}

type HistoryEntry = AdminOrder['history'][number];

/** Who made a change: a manager, the command line (no account), or the shop itself, which says why. */
const changedBy = (entry: HistoryEntry) =>
  entry.by ? entry.by.email : entry.reason ? 'автоматически' : 'командная строка';

const shipmentText = (tracking: Tracking) =>
  tracking.number ? `${tracking.carrier}, трек-номер ${tracking.number}` : tracking.carrier;

function History({ order }: { order: AdminOrder }) {
  return (
    <Timeline
      items={[
        { key: 'created', content: `${formatMoscowDateTimeNumeric(order.created_at)} — заказ создан` },
        ...order.history.map((entry, index) => ({
          key: index,
          content: (
            <>
              <div>
                {formatMoscowDateTimeNumeric(entry.at)} — {entry.from} → {entry.to}
              </div>
              <Typography.Text type="secondary">{changedBy(entry)}</Typography.Text>
              {entry.tracking && <div>{shipmentText(entry.tracking)}</div>}
              {entry.comment && <div>«{entry.comment}»</div>}
              {entry.reason && <div>{entry.reason}</div>}
            </>
          ),
        })),
      ]}
    />
  );
}

/** What a manager may do with the order now: the allowed steps, the invoice, with an optional comment. */
function OrderActions({ order }: { order: AdminOrder }) {
  const { message } = App.useApp();
  const [comment, setComment] = useState('');
  const [carrier, setCarrier] = useState<CarrierName | null>(null);
  const [trackingNumber, setTrackingNumber] = useState('');
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);
  const [changeStatus, { isLoading: changing }] = useChangeOrderStatusMutation();
  const [issueInvoice, { isLoading: issuing }] = useIssueInvoiceMutation();
  const [fetchInvoice, { isLoading: fetching }] = useFetchInvoiceMutation();
  const canIssue = order.status === 'Создан' && order.invoice === null;
  const busy = changing || issuing;

  const step = async (status: OrderStatus) => {
    setFailure(null);
    try {
      const shipment =
        status === SHIPPED
          ? {
              ...(carrier ? { carrier } : {}),
              ...(trackingNumber.trim() ? { tracking_number: trackingNumber.trim() } : {}),
            }
          : {};
      await changeStatus({
        id: order.id,
        status,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
        ...shipment,
      }).unwrap();
      setComment('');
      setCarrier(null);
      setTrackingNumber('');
      void message.success(`Заказ №${order.id}: ${status}`);
    } catch (error) {
      setFailure({ title: 'Статус не изменён', detail: serverErrorDetail(error) });
    }
  };

  const issue = async () => {
    setFailure(null);
    try {
      const invoice = await issueInvoice(order.id).unwrap();
      void message.success(`Счёт ${invoiceName(invoice)} выставлен`);
    } catch (error) {
      setFailure({ title: 'Счёт не выставлен', detail: serverErrorDetail(error) });
    }
  };

  const download = async () => {
    setFailure(null);
    try {
      await fetchInvoice(order.id).unwrap();
    } catch (error) {
      setFailure({ title: 'Не удалось скачать счёт', detail: serverErrorDetail(error) });
    }
  };

  const steps = order.next_statuses;
  if (steps.length === 0 && !canIssue && !order.invoice) return null;
  return (
    <section className="admin-section" aria-labelledby="order-actions">
      <Typography.Title level={2} id="order-actions">
        Действия
      </Typography.Title>
      {failure && (
        <Alert
          type="error"
          showIcon
          closable
          title={failure.title}
          description={failure.detail}
          onClose={() => setFailure(null)}
          style={{ marginBottom: 12 }}
        />
      )}
      {steps.length > 0 && (
        <div className="admin-comment">
          <label htmlFor="status-comment">Комментарий к смене статуса (необязательно, его увидит покупатель)</label>
          <Input.TextArea
            id="status-comment"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            maxLength={1000}
            autoSize={{ minRows: 2, maxRows: 6 }}
          />
        </div>
      )}
      {steps.includes(SHIPPED) && (
        <Flex className="admin-comment" gap={12} wrap>
          <Flex vertical>
            <label htmlFor="shipment-carrier">Перевозчик</label>
            <Select<CarrierName>
              id="shipment-carrier"
              value={carrier}
              onChange={setCarrier}
              options={CARRIER_OPTIONS}
              allowClear
              placeholder="Не указан"
              style={{ minWidth: 200 }}
            />
          </Flex>
          <Flex vertical>
            <label htmlFor="shipment-tracking">Трек-номер</label>
            <Input
              id="shipment-tracking"
              value={trackingNumber}
              onChange={(event) => setTrackingNumber(event.target.value)}
              maxLength={TRACKING_NUMBER_MAX}
              style={{ minWidth: 200 }}
            />
          </Flex>
        </Flex>
      )}
      <div className="admin-actions">
        {canIssue && (
          <Button
            type="primary"
            icon={<FileTextOutlined aria-hidden />}
            loading={issuing}
            disabled={busy}
            onClick={issue}
          >
            Выставить счёт
          </Button>
        )}
        {order.invoice && (
          <Button icon={<DownloadOutlined aria-hidden />} loading={fetching} onClick={download}>
            Скачать счёт
          </Button>
        )}
        {steps.map((status) =>
          status === CANCELLED ? (
            <Popconfirm
              key={status}
              title={`Отменить заказ №${order.id}?`}
              description="Товары вернутся на склад. Отмену нельзя отменить."
              okText="Да, отменить"
              cancelText="Нет"
              okButtonProps={{ danger: true }}
              onConfirm={() => step(status)}
            >
              <Button danger disabled={busy}>
                {stepLabel(status)}
              </Button>
            </Popconfirm>
          ) : (
            <Button key={status} disabled={busy} loading={changing} onClick={() => step(status)}>
              {stepLabel(status)}
            </Button>
          ),
        )}
      </div>
    </section>
  );
}

/** Заказ №N: everything the order says, what may be done with it next, and its history. */
export function AdminOrderPage() {
  const state = useLocation().state as FromQueue | null;
  const id = useRouteId();
  const { data: order, isLoading, error } = useGetAdminOrderQuery(id ?? 0, { skip: id === null });
  const back = (
    <Link to={`${adminPath('orders')}${state?.queue ?? ''}`}>
      <ArrowLeftOutlined aria-hidden /> К заказам
    </Link>
  );

  if (isLoading) return <PageLoading />;
  if (!order) return <OrderNotShown badNumber={id === null} error={error} back={back} />;
  return (
    <>
      <PageTitle name={`Заказ №${order.id}`} />
      {back}
      <div className="admin-page-head">
        <Typography.Title>Заказ №{order.id}</Typography.Title>
        <StatusTag status={order.status} />
      </div>
      <OrderDetails order={order} />
      <OrderActions order={order} />
      <section className="admin-section" aria-labelledby="order-lines">
        <Typography.Title level={2} id="order-lines">
          Товары
        </Typography.Title>
        <OrderLinesTable lines={order.lines} totalPrice={order.total_price} />
        {order.one_c && <OneCLinesTable document={order.one_c} headingLevel={3} />}
      </section>
      <section className="admin-section" aria-labelledby="order-history">
        <Typography.Title level={2} id="order-history">
          История
        </Typography.Title>
        <History order={order} />
      </section>
    </>
  );
}
