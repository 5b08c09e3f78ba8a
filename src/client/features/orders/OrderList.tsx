import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Tag, theme, Typography } from 'antd';
import { DELIVERED_STATUS, type InvoiceRef } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { formatPrice } from '@/components/format';
import { PageLoading } from '@/components/PageLoading';
import { useDownloadInvoiceMutation, useGetOrdersQuery } from './ordersApi';

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

/** «24.11.2026» for the invoice's day (YYYY-MM-DD, already Moscow's: no time zone to apply). */
const invoiceDay = (date: string) => date.split('-').reverse().join('.');

/** «Скачать счёт»: the PDF is fetched with the session's token and saved under the server's file name. */
function InvoiceDownload({ orderId, invoice }: { orderId: number; invoice: InvoiceRef }) {
  const [download, { isLoading }] = useDownloadInvoiceMutation();
  const { message } = App.useApp();
  const save = async () => {
    const result = await download(orderId);
    if ('error' in result) {
      message.error(serverErrorDetail(result.error) ?? 'Не удалось скачать счёт. Попробуйте ещё раз.');
    }
  };
  return (
    <div className="order-card-invoice">
      <Typography.Text type="secondary">
        Счёт № {invoice.number} от {invoiceDay(invoice.date)}
      </Typography.Text>
      <Button icon={<DownloadOutlined />} loading={isLoading} onClick={save}>
        Скачать счёт
      </Button>
    </div>
  );
}

export function OrderList({ userId }: { userId: number }) {
  const { data: orders, isLoading, isError } = useGetOrdersQuery(userId);
  const { token } = theme.useToken();
  if (isLoading) return <PageLoading />;
  if (isError || !orders || orders.length === 0) return <Empty description="Нет заказов" />;
  return (
    <div className="order-list">
      {orders.map((order) => (
        <Card key={order.id} className="order-card" size="small">
          {/* Under the page's 'Мои заказы' (h2), drawn at the fourth level's size. */}
          <Typography.Title level={3} className="order-card-title">
            Заказ #{order.id}
          </Typography.Title>
          <Typography.Text type="secondary">от {dateFormat.format(new Date(order.created_at))}</Typography.Text>
          <Typography.Paragraph className="order-card-sum">
            Сумма: {formatPrice(order.total_price)} ₽
          </Typography.Paragraph>
          {/*
            SPEC §2: green for 'Доставлен', the primary colour otherwise. That one is solid, white on
            the theme's primary: antd tints a custom colour's background to a light pink in both
            themes, and on it the dark theme's primary reads at 4.3:1.
          */}
          <Tag
            color={order.status === DELIVERED_STATUS ? 'success' : token.colorPrimary}
            variant={order.status === DELIVERED_STATUS ? undefined : 'solid'}
          >
            Статус: {order.status}
          </Tag>
          {order.invoice && <InvoiceDownload orderId={order.id} invoice={order.invoice} />}
        </Card>
      ))}
    </div>
  );
}
