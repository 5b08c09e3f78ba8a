import type { TablePaginationConfig } from 'antd';

/**
 * A Table's pager for a list the server sends a page at a time: the page shown (from 1), its size,
 * and «Всего: N» of all the rows the server counted.
 */
export function serverPagination(current: number, pageSize: number, total: number | undefined): TablePaginationConfig {
  return { current, pageSize, total: total ?? 0, showSizeChanger: false, showTotal: (all) => `Всего: ${all}` };
}
