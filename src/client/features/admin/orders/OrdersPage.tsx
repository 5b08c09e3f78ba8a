import { Button, DatePicker, Input, Select, Table, Typography, type TableColumnType, type TableProps } from 'antd';
import dayjs from 'dayjs';
// The picker's month and day names: antd's ru_RU locale names dayjs's «ru», which must be loaded.
import 'dayjs/locale/ru';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import type { AdminOrderList } from '@shared/api';
import { ORDER_STATUSES } from '@shared/order-statuses';
import { formatRubles } from '@shared/money';
import { PageTitle } from '@/components/PageTitle';
import { adminOrderPath } from '../adminPaths';
import { useGetAdminOrdersQuery } from '../adminApi';
import { StatusTag } from '@/components/StatusTag';
import {
  ALL_STATUSES,
  DEFAULT_SORT,
  ordersRequest,
  ordersViewParams,
  PAGE_SIZES,
  readOrdersView,
  type OrdersSort,
  type OrdersView,
} from './ordersView';
import { serverPagination } from '../serverPagination';
import { MineSwitch } from '../MineSwitch';
import { emptyTable } from '../tableEmpty';

type Row = AdminOrderList['items'][number];

/** Where the order page's «К заказам» returns: this queue with its filters. */
export interface FromQueue {
  queue: string;
}

const STATUS_OPTIONS = [
  { value: ALL_STATUSES, label: 'Все' },
  ...ORDER_STATUSES.map((status) => ({ value: status, label: status })),
];

type SortColumn = 'created_at' | 'total';

// The table's sorted column and direction for each of the API's sorts, and back.
const SORT_COLUMNS: Record<OrdersSort, { column: SortColumn; order: 'ascend' | 'descend' }> = {
  created_at_desc: { column: 'created_at', order: 'descend' },
  created_at_asc: { column: 'created_at', order: 'ascend' },
  total_desc: { column: 'total', order: 'descend' },
  total_asc: { column: 'total', order: 'ascend' },
};

function sortOf(column: unknown, order: 'ascend' | 'descend' | null | undefined): OrdersSort {
  if (!order || (column !== 'created_at' && column !== 'total')) return DEFAULT_SORT;
  return `${column}_${order === 'ascend' ? 'asc' : 'desc'}`;
}

interface DayFilterProps {
  id: string;
  label: string;
  /** The day as `YYYY-MM-DD`, or '' for none. */
  value: string;
  /** The other end of the range, which this day may not pass ('' for none). */
  earliest?: string;
  latest?: string;
  onChange(day: string): void;
}

const DAY = 'YYYY-MM-DD';

/**
 * One end of the queue's range of days: antd's DatePicker, in Russian (the app's ConfigProvider
 * gives it ru_RU; dayjs's «ru» names the months and starts the week on Monday) and typed as
 * ДД.ММ.ГГГГ, whatever the browser's language — a native date box follows the browser's.
 */
function DayFilter({ id, label, value, earliest, latest, onChange }: DayFilterProps) {
  return (
    <div className="admin-filter">
      <label htmlFor={id}>{label}</label>
      <DatePicker
        id={id}
        format="DD.MM.YYYY"
        value={value ? dayjs(value) : null}
        disabledDate={(day) =>
          Boolean((earliest && day.isBefore(earliest, 'day')) || (latest && day.isAfter(latest, 'day')))
        }
        onChange={(day) => onChange(day ? day.format(DAY) : '')}
      />
    </div>
  );
}

/** The managers' queue: one page of orders from the server, filtered, sorted and paged as the address says. */
export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { search } = useLocation();
  const view = readOrdersView(params);
  const { data, isFetching, isError } = useGetAdminOrdersQuery(ordersRequest(view));

  /** A new view; any filter or sort change starts again from the first page. */
  const show = (change: Partial<OrdersView>) => {
    const page = change.page ?? 1;
    setParams(ordersViewParams({ ...view, ...change, page }));
  };
  const open = (id: number) => navigate(adminOrderPath(id), { state: { queue: search } satisfies FromQueue });
  const sorted = SORT_COLUMNS[view.sort];
  // Clicking a sorted column flips it; the queue is never left unsorted.
  const sortable = (column: SortColumn): TableColumnType<Row> => ({
    key: column,
    sorter: true,
    sortDirections: ['descend', 'ascend', 'descend'],
    sortOrder: sorted.column === column ? sorted.order : null,
  });

  const columns: TableProps<Row>['columns'] = [
    {
      title: 'Заказ',
      dataIndex: 'id',
      render: (id: number) => (
        // A link for the keyboard and a new tab; a click anywhere on the row opens the order too.
        <Link
          to={adminOrderPath(id)}
          state={{ queue: search } satisfies FromQueue}
          onClick={(event) => event.stopPropagation()}
        >
          №{id}
        </Link>
      ),
    },
    {
      title: 'Создан',
      dataIndex: 'created_at',
      ...sortable('created_at'),
      render: formatMoscowDateTimeNumeric,
    },
    { title: 'Статус', dataIndex: 'status', render: (status: Row['status']) => <StatusTag status={status} /> },
    { title: 'Покупатель', dataIndex: 'user_email' },
    {
      title: 'Компания',
      key: 'company',
      render: (_value, row) =>
        row.company_name || row.company_inn ? (
          <>
            {row.company_name && <div>{row.company_name}</div>}
            {row.company_inn && <Typography.Text type="secondary">ИНН {row.company_inn}</Typography.Text>}
          </>
        ) : (
          '—'
        ),
    },
    { title: 'Товаров, шт.', dataIndex: 'items_count', align: 'right' },
    {
      title: 'Сумма',
      dataIndex: 'total_price',
      align: 'right',
      ...sortable('total'),
      render: formatRubles,
    },
  ];

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'sort' && !Array.isArray(sorter)) show({ sort: sortOf(sorter.columnKey, sorter.order) });
    if (action === 'paginate') show({ page: pagination.current ?? 1, size: pagination.pageSize ?? view.size });
  };

  return (
    <>
      <PageTitle name="Заказы" />
      <div className="admin-page-head">
        <Typography.Title>Заказы</Typography.Title>
      </div>
      <div role="search" className="admin-filters" aria-label="Отбор заказов">
        <div className="admin-filter">
          <label htmlFor="orders-status">Статус</label>
          <Select
            id="orders-status"
            className="admin-filter-status"
            options={STATUS_OPTIONS}
            value={view.status}
            onChange={(status) => show({ status })}
          />
        </div>
        <div className="admin-filter admin-filter-search">
          <label htmlFor="orders-q">Номер, e-mail, компания или ИНН</label>
          <Input.Search
            // Typed text is the box's own until submitted; a new address (Back, «Сбросить») shows its q.
            key={view.q}
            id="orders-q"
            defaultValue={view.q}
            onSearch={(q) => show({ q: q.trim() })}
            enterButton="Найти"
            maxLength={200}
          />
        </div>
        <DayFilter
          id="orders-from"
          label="С (день по Москве)"
          value={view.from}
          latest={view.to}
          onChange={(from) => show({ from })}
        />
        <DayFilter
          id="orders-to"
          label="По (включительно)"
          value={view.to}
          earliest={view.from}
          onChange={(to) => show({ to })}
        />
        <MineSwitch id="orders-mine" checked={view.mine} onChange={(mine) => show({ mine })} />
        <Button onClick={() => setParams(new URLSearchParams())}>Сбросить</Button>
      </div>
      {isError && (
        <Typography.Paragraph type="danger" role="alert">
          Не удалось загрузить заказы. Попробуйте обновить страницу.
        </Typography.Paragraph>
      )}
      <Table<Row>
        rowKey="id"
        columns={columns}
        dataSource={data?.items}
        loading={isFetching}
        onChange={onChange}
        showSorterTooltip={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Заказов нет')}
        onRow={(row) => ({ onClick: () => open(row.id), className: 'admin-clickable-row' })}
        pagination={{
          ...serverPagination(view.page, view.size, data?.total),
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
        }}
      />
    </>
  );
}
