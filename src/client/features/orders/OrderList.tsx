import './orders.css';
import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, Pagination, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { BuyerOrdersFilter, Company, InvoiceRef } from '@shared/api';
import { formatCalendarDay, formatLocalDate } from '@shared/dates';
import { formatRubles } from '@shared/money';
import { ORDER_STATUSES } from '@shared/order-statuses';
import { orderPath } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { StatusTag } from '@/components/StatusTag';
import { piecesCount } from '@/components/piecesCount';
import { useGetCompanyQuery } from '@/features/company/companyApi';
import { useCompanyStanding } from '@/features/company/companyStanding';
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

const ORDERS_PAGE_SIZE = 12;

type OrderFilters = Pick<BuyerOrdersFilter, 'status' | 'legal_entity_id' | 'placed_by'>;

const STATUS_OPTIONS = ORDER_STATUSES.map((status) => ({ value: status, label: status }));

/**
 * The filters of the company's orders: the status, and where the company has more than one of
 * them, the legal entity ordered for and the employee who placed it.
 */
function OrderFilterBar({
  company,
  filters,
  onChange,
}: {
  company: Company | undefined;
  filters: OrderFilters;
  onChange(change: OrderFilters): void;
}) {
  const entities = company?.legal_entities ?? [];
  const members = company?.members ?? [];
  return (
    <Flex wrap gap="small" className="order-filters" role="group" aria-label="Отбор заказов">
      <Select
        id="orders-status"
        aria-label="Статус"
        placeholder="Все статусы"
        allowClear
        value={filters.status}
        options={STATUS_OPTIONS}
        onChange={(status) => onChange({ status })}
      />
      {entities.length > 1 && (
        <Select
          id="orders-legal-entity"
          aria-label="Юрлицо"
          placeholder="Все юрлица"
          allowClear
          value={filters.legal_entity_id}
          options={entities.map((entity) => ({ value: entity.id, label: entity.name }))}
          onChange={(legal_entity_id) => onChange({ legal_entity_id })}
        />
      )}
      {members.length > 1 && (
        <Select
          id="orders-placed-by"
          aria-label="Сотрудник"
          placeholder="Все сотрудники"
          allowClear
          value={filters.placed_by}
          options={members.map((member) => ({ value: member.user_id, label: member.name ?? member.email }))}
          onChange={(placed_by) => onChange({ placed_by })}
        />
      )}
    </Flex>
  );
}

/** The company's orders as cards, newest first, a page at a time, with who placed each and for which legal entity. */
export function OrderList({ userId }: { userId: number }) {
  const [filters, setFilters] = useState<OrderFilters>({});
  const [page, setPage] = useState(1);
  const standing = useCompanyStanding();
  const { data: company } = useGetCompanyQuery(undefined, { skip: !standing.company });
  const { data, isLoading, isError, isFetching } = useGetOrdersQuery({
    userId,
    skip: (page - 1) * ORDERS_PAGE_SIZE,
    limit: ORDERS_PAGE_SIZE,
    ...filters,
  });
  if (isLoading) return <PageLoading />;
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const orders = isError ? [] : (data?.orders ?? []);
  const entityName = (id: string | null) => company?.legal_entities.find((entity) => entity.id === id)?.name;
  const filter = (change: OrderFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };

  return (
    <>
      {(filtered || orders.length > 0) && <OrderFilterBar company={company} filters={filters} onChange={filter} />}
      {orders.length === 0 ? (
        <Empty description={filtered ? 'Нет заказов с такими отборами' : 'Нет заказов'} />
      ) : (
        <Spin spinning={isFetching}>
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
                {order.placed_by && (
                  <Typography.Text type="secondary" className="order-card-line">
                    Оформил: {order.placed_by.name}
                  </Typography.Text>
                )}
                {entityName(order.legal_entity_id) && (
                  <Typography.Text type="secondary" className="order-card-line">
                    Юрлицо: {entityName(order.legal_entity_id)}
                  </Typography.Text>
                )}
                <Typography.Paragraph className="order-card-sum">
                  Сумма: {formatRubles(order.total_price)}
                </Typography.Paragraph>
                <StatusTag status={order.status} label={`Статус: ${order.status}`} />
                {order.invoice && <InvoiceDownload orderId={order.id} invoice={order.invoice} />}
              </Card>
            ))}
          </div>
        </Spin>
      )}
      <Pagination
        className="order-pages"
        align="center"
        current={page}
        pageSize={ORDERS_PAGE_SIZE}
        total={isError ? 0 : (data?.total ?? 0)}
        hideOnSinglePage
        showSizeChanger={false}
        onChange={setPage}
      />
    </>
  );
}
