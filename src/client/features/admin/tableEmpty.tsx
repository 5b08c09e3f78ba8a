import { Empty } from 'antd';
import type { TableProps } from 'antd';

/**
 * A table's empty state in the description grey: a plain `emptyText` string takes antd's table
 * placeholder colour (colorTextDisabled, 1.8:1 on white), which fails WCAG's contrast.
 */
export function emptyTable(text: string): TableProps['locale'] {
  return { emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} /> };
}
