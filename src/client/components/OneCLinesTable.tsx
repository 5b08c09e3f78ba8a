import { Table, Typography } from 'antd';
import type { OneCDocumentView } from '@shared/api';
import { formatLocalDateTime } from '@shared/dates';
import { formatRubles } from '@shared/money';

/**
 * The order as 1С last described it (shipped 18 of 24), shown beside the lines the buyer placed,
 * which never change: the buyer's order page and the back office's.
 */
export function OneCLinesTable({ document, headingLevel }: { document: OneCDocumentView; headingLevel: 2 | 3 }) {
  return (
    <section aria-label="По данным 1С">
      <Typography.Title level={headingLevel}>По данным 1С</Typography.Title>
      <Typography.Paragraph type="secondary">
        Документ № {document.number}, обновлён {formatLocalDateTime(document.received_at)}
        {document.sum !== null && `, сумма ${formatRubles(document.sum)}`}
      </Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        // 1С may list the same goods twice: the lines are keyed by their place.
        dataSource={document.lines.map((line, index) => ({ ...line, key: index }))}
        columns={[
          { title: 'Артикул', dataIndex: 'article' },
          { title: 'Наименование', dataIndex: 'name' },
          { title: 'Цена', dataIndex: 'price', align: 'right', render: (price: number) => formatRubles(price) },
          { title: 'Кол-во', dataIndex: 'quantity', align: 'right' },
          { title: 'Сумма', dataIndex: 'sum', align: 'right', render: (sum: number) => formatRubles(sum) },
        ]}
      />
    </section>
  );
}
