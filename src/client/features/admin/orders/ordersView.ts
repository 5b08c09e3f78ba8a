import type { AdminOrdersFilter } from '@shared/api';
import { PAGE_SIZE } from '@shared/limits';
import { ORDER_STATUSES, type OrderStatus } from '@shared/order-statuses';
import type { AdminOrdersRequest } from '../adminApi';

export type OrdersSort = AdminOrdersFilter['sort'];

/** The queue's address says «all statuses» with this; without a status it shows the new orders. */
export const ALL_STATUSES = 'all';
export const DEFAULT_STATUS: OrderStatus = 'Создан';
export const DEFAULT_SORT: OrdersSort = 'created_at_desc';
export const PAGE_SIZES = [10, 20, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 20;

// Every sort the API takes, checked against its type: a new one there fails to compile here.
const SORTS: Record<OrdersSort, true> = {
  created_at_desc: true,
  created_at_asc: true,
  total_desc: true,
  total_asc: true,
};
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the managers' queue shows, all of it kept in the address (a reload or a shared link shows the same). */
export interface OrdersView {
  status: OrderStatus | typeof ALL_STATUSES;
  q: string;
  /** Moscow days, «2026-11-24», or '' for none. */
  from: string;
  to: string;
  sort: OrdersSort;
  /** Only the orders of the companies the manager looks after («Мои клиенты»). */
  mine: boolean;
  /** 1-based. */
  page: number;
  size: number;
}

/** Whether a status the server sent as text is one of the order's statuses. */
export const isOrderStatus = (value: string | null): value is OrderStatus =>
  (ORDER_STATUSES as readonly (string | null)[]).includes(value);
const isSort = (value: string | null): value is OrdersSort => value !== null && Object.hasOwn(SORTS, value);
const positive = (value: string | null) => (value !== null && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null);

/** The view an address names; anything it does not name, or names wrongly, is the default. */
export function readOrdersView(params: URLSearchParams): OrdersView {
  const status = params.get('status');
  const sort = params.get('sort');
  const given = positive(params.get('size'));
  const size = given !== null && (PAGE_SIZES as readonly number[]).includes(given) ? given : DEFAULT_PAGE_SIZE;
  const page = positive(params.get('page')) ?? 1;
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    status: status === ALL_STATUSES || isOrderStatus(status) ? status : DEFAULT_STATUS,
    q: params.get('q')?.trim() ?? '',
    from: day('from'),
    to: day('to'),
    sort: isSort(sort) ? sort : DEFAULT_SORT,
    mine: params.get('mine') === 'true',
    // A page beyond the furthest offset the API reads from is the first.
    page: (page - 1) * size <= PAGE_SIZE.skipMax ? page : 1,
    size,
  };
}

/** The address of a view, naming only what differs from the default. */
export function ordersViewParams(view: OrdersView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.status !== DEFAULT_STATUS) params.set('status', view.status);
  if (view.q) params.set('q', view.q);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.mine) params.set('mine', 'true');
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== DEFAULT_PAGE_SIZE) params.set('size', String(view.size));
  return params;
}

/** The API request for a view (undefined parameters are left out of the query). */
export function ordersRequest(view: OrdersView): AdminOrdersRequest {
  return {
    status: view.status === ALL_STATUSES ? undefined : view.status,
    q: view.q || undefined,
    from: view.from || undefined,
    to: view.to || undefined,
    sort: view.sort,
    mine: view.mine || undefined,
    skip: (view.page - 1) * view.size,
    limit: view.size,
  };
}
