import { Table, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { OrderLine } from '@shared/api';
import { formatRubles } from '@shared/money';
import { piecesCount } from './piecesCount';

interface OrderLinesTableProps {
  lines: OrderLine[];
  totalPrice: number;
  /** How the article reads: the buyer's page links it to the product, the back office shows it as it is. */
  renderArticle?: (art: string) => ReactNode;
}

/** The price a piece applied, and, when the order kept them, its price by quantity and its type of prices. */
function LinePrice({ line }: { line: OrderLine }) {
  const terms = [line.tier_from !== null && `цена от ${line.tier_from} шт.`, line.price_type].filter(Boolean);
  return (
    <>
      {formatRubles(line.price)}
      {terms.length > 0 && (
        <div>
          <Typography.Text type="secondary">{terms.join(', ')}</Typography.Text>
        </div>
      )}
    </>
  );
}

/** An order's lines with their pieces and sum, as the buyer's order page and the back office show them. */
export function OrderLinesTable({ lines, totalPrice, renderArticle }: OrderLinesTableProps) {
  const pieces = lines.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <Table<OrderLine>
      // An order holds one line a variant: the article, colour and size name it.
      rowKey={(line) => `${line.art}|${line.color}|${line.size}`}
      columns={[
        { title: 'Артикул', dataIndex: 'art', render: renderArticle },
        { title: 'Название', dataIndex: 'name' },
        { title: 'Цвет', dataIndex: 'color' },
        { title: 'Размер, см', dataIndex: 'size', align: 'right' },
        {
          title: 'Цена',
          dataIndex: 'price',
          align: 'right',
          render: (_price: number, line) => <LinePrice line={line} />,
        },
        { title: 'Кол-во, шт.', dataIndex: 'quantity', align: 'right' },
        { title: 'Сумма', dataIndex: 'item_total', align: 'right', render: formatRubles },
      ]}
      dataSource={lines}
      pagination={false}
      size="small"
      scroll={{ x: 'max-content' }}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={5}>
            <strong>Итого</strong>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={5} align="right">
            <strong>{piecesCount(pieces)}</strong>
          </Table.Summary.Cell>
          <Table.Summary.Cell index={6} align="right">
            <strong>{formatRubles(totalPrice)}</strong>
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}
