// antd's CSS for the table and the toasts (theme/antdComponents.ts), with this lazy chunk.
import '../../theme/antd-matrix.generated.css';
import './matrix.css';
import { Button, Flex, InputNumber, message as toasts, Table, Typography, type TableColumnsType } from 'antd';
import { useId, useMemo, useState } from 'react';
import type { Product, Variant } from '@shared/api';
import { formatKopecks, formatRubles } from '@shared/money';
import { countOf } from '@shared/plurals';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { useAddManyToCartMutation } from '@/features/cart/cartBulkApi';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { selectUser } from '@/features/session/sessionSlice';
import { lineLimitNote, type LineLimits } from '@shared/order-limits';
import type { Packaging } from '@shared/pricing';
import { fitTypedCount, maxLineCount } from '@/components/packaging';
import { useOrderLimits } from '@/features/session/orderLimits';
import {
  linesOf,
  matrixOf,
  namedByCell,
  overStock,
  totalOf,
  wholePieces,
  type MatrixRow,
  type Quantities,
} from './matrix';

const variantsCount = countOf({ one: 'вариант', few: 'варианта', many: 'вариантов' });

interface CellProps {
  variant: Variant;
  packaging: Packaging;
  pieces: number;
  /** What one order line may take (null: up to the stock). */
  lineLimits: LineLimits | null;
  /** What the count typed was raised to, and why (fitTypedCount), or null. */
  roundedNote: string | null;
  onChange(pieces: number): void;
  /** The buyer has left the cell: its count is fitted to the packaging. */
  onDone(): void;
}

function MatrixCell({ variant, packaging, pieces, lineLimits, roundedNote, onChange, onDone }: CellProps) {
  const soldOut = variant.stock <= 0;
  const noteId = useId();
  const note =
    !soldOut && pieces > variant.stock
      ? { text: `В наличии только ${variant.stock} шт.`, type: 'danger' as const }
      : { text: lineLimitNote(pieces, variant, lineLimits, packaging.multiple), type: 'warning' as const };
  const notes = [
    roundedNote && { id: `${noteId}-rounded`, text: roundedNote, type: 'warning' as const },
    note.text && { id: noteId, ...note },
  ].filter((shown) => !!shown);
  return (
    <Flex vertical gap={4} className="matrix-cell">
      {/* Not shown to a visitor told prices after signing in (ProductDetails). */}
      {variant.price !== null && <span className="matrix-price">{formatRubles(variant.price)}</span>}
      <span className="matrix-stock">{soldOut ? 'нет на складе' : `остаток: ${variant.stock} шт.`}</span>
      <InputNumber
        aria-label={`Количество, ${variant.color}, ${variant.size} см`}
        className="matrix-input"
        min={0}
        max={maxLineCount(packaging)}
        step={packaging.multiple}
        precision={0}
        inputMode="numeric"
        disabled={soldOut}
        // Empty rather than 0: the cells the buyer has filled stand out.
        placeholder="0"
        value={pieces === 0 ? null : pieces}
        status={note.text && note.type === 'danger' ? 'error' : undefined}
        aria-describedby={notes.length > 0 ? notes.map((shown) => shown.id).join(' ') : undefined}
        onChange={(typed) => onChange(wholePieces(typed))}
        onBlur={onDone}
      />
      {notes.map((shown) => (
        <Typography.Text key={shown.id} id={shown.id} type={shown.type} className="matrix-note">
          {shown.text}
        </Typography.Text>
      ))}
    </Flex>
  );
}

/**
 * Every colour and size of a product at once, loaded on demand (ProductDetails): a
 * quantity per cell, with what it cannot be (beyond the stock, beyond one order's share) said
 * under it, the running total, and one request that adds every
 * filled cell to the cart, all or nothing.
 */
export default function VariantMatrix({ product }: { product: Product }) {
  // message's own hook, not antd's App (which brings the modal and notification code too).
  const [message, toastHolder] = toasts.useMessage();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const headingId = useId();
  const [quantities, setQuantities] = useState<Quantities>({});
  const [roundedNotes, setRoundedNotes] = useState<Record<number, string>>({});
  const [addMany, { isLoading: adding }] = useAddManyToCartMutation();
  const matrix = useMemo(() => matrixOf(product.variants), [product.variants]);
  const total = totalOf(product.variants, quantities);
  const { lineLimits } = useOrderLimits();
  const beyondStock = overStock(product.variants, quantities);

  const typeCell = (variant: Variant, pieces: number) => {
    setQuantities((typed) => ({ ...typed, [variant.id]: pieces }));
    setRoundedNotes(({ [variant.id]: _left, ...others }) => others);
  };

  /** A cell the buyer has left, raised to what the packaging allows, the change said in the cell. */
  const fitCell = (variant: Variant) => {
    const pieces = quantities[variant.id] ?? 0;
    const { count, note } = fitTypedCount(pieces, product, variant.stock);
    if (pieces === 0 || !note) return;
    setQuantities((typed) => ({ ...typed, [variant.id]: count }));
    setRoundedNotes((notes) => ({ ...notes, [variant.id]: note }));
  };

  const columns: TableColumnsType<MatrixRow> = [
    { title: 'Цвет', dataIndex: 'colour', key: 'colour', rowScope: 'row', fixed: 'left' },
    ...matrix.sizes.map((size) => ({
      title: `${size} см`,
      key: String(size),
      align: 'center' as const,
      render: (_: unknown, row: MatrixRow) => {
        const variant = row.bySize.get(size);
        if (!variant) return <span title="Такого варианта нет">—</span>;
        return (
          <MatrixCell
            variant={variant}
            packaging={product}
            pieces={quantities[variant.id] ?? 0}
            lineLimits={lineLimits}
            roundedNote={roundedNotes[variant.id] ?? null}
            onChange={(pieces) => typeCell(variant, pieces)}
            onDone={() => fitCell(variant)}
          />
        );
      },
    })),
  ];

  const addToCart = async () => {
    // A visitor is asked to log in; what was typed stays, so one more click adds it.
    if (!user) {
      dispatch(authDialogOpened('login'));
      return;
    }
    const lines = linesOf(product, matrix, quantities);
    try {
      await addMany({ user_id: user.id, items: lines }).unwrap();
      setQuantities({});
      setRoundedNotes({});
      message.success(
        `Добавлено в корзину: ${total.pieces} шт. на ${formatKopecks(total.kopecks)} (${variantsCount(lines.length)})`,
      );
    } catch (error) {
      const detail = serverErrorDetail(error);
      message.error(detail ? namedByCell(detail, lines, product.variants) : 'Не удалось добавить товары в корзину');
    }
  };

  return (
    <section className="variant-matrix" aria-labelledby={headingId}>
      {toastHolder}
      <Typography.Title level={2} id={headingId}>
        Все цвета и размеры
      </Typography.Title>
      <Table<MatrixRow>
        columns={columns}
        dataSource={matrix.rows}
        rowKey="colour"
        pagination={false}
        size="small"
        bordered
        // On a phone the sizes scroll sideways, the colours stay.
        scroll={{ x: 'max-content' }}
      />
      <Flex wrap gap="middle" align="center" justify="space-between" className="matrix-footer">
        <Typography.Text strong role="status">
          Итого: {total.pieces} шт. на {formatKopecks(total.kopecks)}
        </Typography.Text>
        <Button
          type="primary"
          size="large"
          disabled={total.pieces === 0 || beyondStock.length > 0 || adding}
          aria-busy={adding}
          aria-describedby={beyondStock.length > 0 ? `${headingId}-beyond-stock` : undefined}
          onClick={addToCart}
        >
          Добавить в корзину
        </Button>
        {beyondStock.length > 0 && (
          <Typography.Text type="danger" id={`${headingId}-beyond-stock`}>
            Где указано больше, чем в наличии, уменьшите количество
          </Typography.Text>
        )}
      </Flex>
    </section>
  );
}
