import { Button, Checkbox, Flex, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import type { CartImportLine } from '@shared/api';
import { formatRubles } from '@shared/money';
import { lineLimitNote, type LineLimits } from '@shared/order-limits';
import { countOf } from '@shared/plurals';
import { piecesCount } from '@/components/piecesCount';
import { useOrderLimits } from '@/features/session/orderLimits';

/** 1 строка, 3 строки, 5 строк. */
export const linesCount = countOf({ one: 'строка', few: 'строки', many: 'строк' });

/** The lines that may be added, and how many pieces they hold. */
export function addableLines(lines: CartImportLine[]) {
  const valid = lines.filter((line) => line.error === null);
  return { valid, pieces: valid.reduce((sum, line) => sum + (line.count ?? 0), 0) };
}

/** What the server could not read stays blank; the problem column says why. */
const shown = (value: string | number | null, unit = '') => (value === null ? '' : `${value}${unit}`);

/** The quantity, and the limit of one order under it when the line goes beyond it. */
function Quantity({ line, lineLimits }: { line: CartImportLine; lineLimits: LineLimits | null }) {
  const note =
    line.count === null || line.stock === null
      ? null
      : lineLimitNote(line.count, { stock: line.stock, unproven_held: line.unproven_held ?? 0 }, lineLimits);
  return (
    <>
      {shown(line.count)}
      {note && (
        <Typography.Text type="warning" className="quick-order-share">
          {note}
        </Typography.Text>
      )}
    </>
  );
}

const columnsFor = (lineLimits: LineLimits | null): TableColumnsType<CartImportLine> => [
  { title: '№ строки', dataIndex: 'line', width: 110, align: 'right' },
  { title: 'Артикул', dataIndex: 'art', render: (art: string | null) => shown(art) },
  { title: 'Товар', dataIndex: 'name', render: (name: string | null) => shown(name) },
  { title: 'Цвет', dataIndex: 'color', render: (color: string | null) => shown(color) },
  { title: 'Размер', dataIndex: 'size', align: 'right', render: (size: number | null) => shown(size, ' см') },
  {
    title: 'Количество',
    dataIndex: 'count',
    align: 'right',
    render: (_: number | null, line: CartImportLine) => <Quantity line={line} lineLimits={lineLimits} />,
  },
  {
    title: 'Цена',
    dataIndex: 'price',
    align: 'right',
    render: (price: number | null) => (price === null ? '' : formatRubles(price)),
  },
  {
    title: 'Проблема',
    dataIndex: 'error',
    render: (error: string | null) => error && <Typography.Text type="danger">{error}</Typography.Text>,
  },
];

/** Rows a page: a preview of 5 000 lines renders 50 at a time. */
const PAGE_SIZE = 50;

interface QuickOrderPreviewProps {
  lines: CartImportLine[];
  adding: boolean;
  onAdd(): void;
}

/** The checked lines, each with its problem on its row, what may be added, and the one button that adds it. */
export function QuickOrderPreview({ lines, adding, onAdd }: QuickOrderPreviewProps) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const { lineLimits } = useOrderLimits();
  const columns = useMemo(() => columnsFor(lineLimits), [lineLimits]);
  const { valid, pieces } = useMemo(() => addableLines(lines), [lines]);
  const invalid = lines.length - valid.length;
  const listed = useMemo(
    () => (onlyProblems ? lines.filter((line) => line.error !== null) : lines),
    [lines, onlyProblems],
  );

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2}>Проверка</Typography.Title>
      <Flex gap="large" wrap role="status">
        <Typography.Text strong>Можно добавить: {linesCount(valid.length)}</Typography.Text>
        <Typography.Text strong type={invalid > 0 ? 'danger' : undefined}>
          С ошибками: {linesCount(invalid)}
        </Typography.Text>
      </Flex>
      {invalid > 0 && (
        <Checkbox checked={onlyProblems} onChange={(event) => setOnlyProblems(event.target.checked)}>
          Показать только строки с ошибками
        </Checkbox>
      )}
      <Table
        rowKey="line"
        size="small"
        columns={columns}
        dataSource={listed}
        rowClassName={(line) => (line.error === null ? '' : 'quick-order-line-invalid')}
        pagination={{ pageSize: PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
      />
      {invalid > 0 && valid.length > 0 && (
        <Typography.Paragraph type="secondary">
          Строки с ошибками в корзину не попадут: исправьте их в списке или файле и проверьте снова.
        </Typography.Paragraph>
      )}
      <Flex>
        <Button type="primary" size="large" disabled={valid.length === 0} loading={adding} onClick={onAdd}>
          Добавить в корзину: {linesCount(valid.length)}, {piecesCount(pieces)}
        </Button>
      </Flex>
    </Flex>
  );
}
