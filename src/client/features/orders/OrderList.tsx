import './orders.css';
import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Typography } from 'antd';
import { Link } from 'react-router';
import type { InvoiceRef } from '@shared/api';
import { formatCalendarDay, formatLocalDate } from '@shared/dates';
import { formatRubles } from '@shared/money';
import { orderPath } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { StatusTag } from '@/components/StatusTag';
import { piecesCount } from '@/components/piecesCount';
import { useDownloadInvoiceMutation, useGetOrdersQuery } from './ordersApi';

/** «Скачать счёт»: the PDF is fetched with the session's token and saved under the server's file name. */
export function InvoiceDownload({ orderId, invoice }: { orderId: number; invoice: InvoiceRef }) {
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
        Счёт № {invoice.number} от {formatCalendarDay(invoice.date)}
      </Typography.Text>
      <Button icon={<DownloadOutlined />} loading={isLoading} onClick={save}>
        Скачать счёт
      </Button>
    </div>
  );
}

export function OrderList({ userId }: { userId: number }) {
  const { data: orders, isLoading, isError } = useGetOrdersQuery(userId);
  if (isLoading) return <PageLoading />;
  if (isError || !orders || orders.length === 0) return <Empty description="Нет заказов" />;
  return (
    <div className="order-list">
      {orders.map((order) => (
        <Card key={order.id} className="order-card" size="small">
          {/* Under the page's 'Мои заказы' (h2), drawn at the fourth level's size; the title opens the order. */}
          <Typography.Title level={3} className="order-card-title">
            <Link to={orderPath(order.id)}>Заказ #{order.id}</Link>
          </Typography.Title>
          <Typography.Text type="secondary">
            от {formatLocalDate(order.created_at)} · {piecesCount(order.items_count)}
          </Typography.Text>
          <Typography.Paragraph className="order-card-sum">
            Сумма: {formatRubles(order.total_price)}
          </Typography.Paragraph>
          <StatusTag status={order.status} label={`Статус: ${order.status}`} />
          {order.invoice && <InvoiceDownload orderId={order.id} invoice={order.invoice} />}
        </Card>
      ))}
    </div>
  );
}
