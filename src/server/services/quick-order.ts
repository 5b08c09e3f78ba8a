import type { Cart, CartImportLine, CartImportResult } from '../../shared/api';
import { LIMITS } from '../../shared/limits';
import { CART_IMPORT_MAX_LINES, ORDER_LINE_COLUMNS, QUICK_ORDER_COLUMNS } from '../../shared/cart-import';
import { rublesToKopecks } from '../../shared/money';
import { packagingProblem } from '../../shared/pricing';
import { SoldOutError, UploadRefusedError } from '../domain/domain-errors';
import type { ArticleVariant } from '../repositories/cart';
import { unescapeFormula, writeTable, type Cell, type SpreadsheetFormat, type TableColumn } from './spreadsheet-file';
import { readSheetTable } from './spreadsheet-reader';

/**
 * The quick order: lines «артикул цвет размер количество» pasted as text or uploaded as
 * a spreadsheet, checked against the catalogue and the buyer's cart; and the cart's own export,
 * which such an upload reads back.
 */

/** A line as read, before the catalogue is asked: its fields, or null where missing or unreadable. */
export interface QuickOrderEntry {
  line: number;
  art: string | null;
  color: string | null;
  size: number | null;
  count: number | null;
  /** Why a field could not be read, if it could not. */
  problem: string | null;
}

const FIELD_NAMES = ['артикул', 'цвет', 'размер', 'количество'] as const;
const COUNT_RULE = 'Количество должно быть целым числом от 1';
const SIZE_RULE = 'Размер должен быть целым числом сантиметров';
/**
 * The cart's own export of 5 000 lines unpacks into 2 MB of XML; a buyer's file with more columns,
 * a few times that. exceljs holds the whole sheet in memory, so what may unpack is kept close to
 * what 5 000 lines need: a small file of a million tiny rows is refused before it is read.
 */
const MAX_UNZIPPED_BYTES = 16 * 1024 * 1024;
/**
 * Rows, cells and shared strings of a file (services/spreadsheet-file.ts): 5 000 lines of 24 text
 * columns. The cart's export of 5 000 lines has about 50 000.
 */
const MAX_CELLS = 250_000;
/**
 * The heap its read may take: twice what the most the cell budget allows needs (measured: 125 000
 * rows, cells and strings were read in a 64 MB heap, 0.6 s). The budget keeps a read well inside
 * it, which matters: past the ceiling V8 stops the thread only at best, and may abort the process.
 */
const MAX_READ_HEAP_MB = 256;

/** Digits with spaces between groups as people write them, or a number cell; NaN for anything else. */
function integerOf(cell: Cell): number {
  if (typeof cell === 'number') return Number.isSafeInteger(cell) ? cell : Number.NaN;
  const digits = String(cell).replace(/[\s\u00a0\u202f]/g, '');
  return /^-?\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
}

const textOf = (cell: Cell) => unescapeFormula(String(cell).trim());

/** The line's four fields (article, colour, size, count) read and checked for form, not yet for meaning. */
function entryOf(line: number, fields: readonly (Cell | Error)[], formProblem: string | null = null): QuickOrderEntry {
  const problems: string[] = formProblem ? [formProblem] : [];
  const missing: string[] = [];
  const read = <Value>(index: number, convert: (cell: Cell) => Value): Value | null => {
    const cell = fields[index] ?? null;
    if (cell instanceof Error) {
      problems.push(`Столбец «${QUICK_ORDER_COLUMNS[index]}»: ${cell.message}`);
      return null;
    }
    if (cell === null || String(cell).trim() === '') {
      if (!formProblem) missing.push(FIELD_NAMES[index]!);
      return null;
    }
    return convert(cell);
  };
  const art = read(0, textOf);
  const color = read(1, (cell) => textOf(cell).replace(/\s+/g, ' '));
  let size = read(2, integerOf);
  if (size !== null && !(size >= 1)) {
    problems.push(SIZE_RULE);
    size = null;
  }
  let count = read(3, integerOf);
  if (count !== null && !(count >= 1)) {
    problems.push(COUNT_RULE);
    if (Number.isNaN(count)) count = null;
  } else if (count !== null && count > LIMITS.maxCartCount) {
    problems.push(`Количество должно быть не больше ${LIMITS.maxCartCount}`);
  }
  if (missing.length > 0) problems.unshift(`Не заполнено: ${missing.join(', ')}`);
  return { line, art, color, size, count, problem: problems.length > 0 ? problems.join('; ') : null };
}

const isHeader = (fields: readonly (string | null)[]) =>
  QUICK_ORDER_COLUMNS.every((column, index) => fields[index]?.toLowerCase() === column.toLowerCase());

/**
 * A pasted line's fields. With tabs (cells copied from Excel) or «;» the line is split on them;
 * with spaces only, the article is the first word, the count the last, the size the one before it
 * and the colour all between (a colour may have spaces: «светло бежевый»).
 */
function splitPasted(text: string): { fields: (string | null)[]; problem: string | null } {
  const separator = text.includes('\t') ? '\t' : text.includes(';') ? ';' : null;
  if (separator) {
    const fields: (string | null)[] = text.split(separator).map((field) => field.trim() || null);
    while (fields.length > 0 && fields.at(-1) === null) fields.pop();
    const problem =
      fields.length > QUICK_ORDER_COLUMNS.length
        ? `Лишние значения: в строке нужны только ${FIELD_NAMES.join(', ')}`
        : null;
    return { fields: fields.slice(0, QUICK_ORDER_COLUMNS.length), problem };
  }
  const words = text.trim().split(/\s+/);
  if (words.length < QUICK_ORDER_COLUMNS.length) {
    return {
      fields: [words[0] ?? null, null, null, null],
      problem: `Строка не разобрана: нужны ${FIELD_NAMES.join(', ')} через пробел, табуляцию или «;»`,
    };
  }
  return { fields: [words[0]!, words.slice(1, -2).join(' '), words.at(-2)!, words.at(-1)!], problem: null };
}

function checkedCount(entries: QuickOrderEntry[]): QuickOrderEntry[] {
  if (entries.length === 0) {
    throw new UploadRefusedError(
      `Нет ни одной строки с товаром: нужны строки «${QUICK_ORDER_COLUMNS.join(' ').toLowerCase()}», например «MO-1008 коричневый 90 10»`,
    );
  }
  if (entries.length > CART_IMPORT_MAX_LINES) {
    throw new UploadRefusedError(
      `Слишком много строк: за один раз можно не более ${CART_IMPORT_MAX_LINES}. Разделите список на части`,
    );
  }
  return entries;
}

/**
 * Pasted lines, numbered as in the text (from 1, empty lines counted, so the buyer finds them),
 * without empty lines and a first line that is the header. None, or more than
 * CART_IMPORT_MAX_LINES → 422.
 */
export function readPastedQuickOrder(text: string): QuickOrderEntry[] {
  const entries: QuickOrderEntry[] = [];
  let headerPassed = false;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    // One line too many is enough to refuse: 5 MB of «a» lines are not all taken apart first.
    if (entries.length > CART_IMPORT_MAX_LINES) break;
    if (line.trim() === '') continue;
    const { fields, problem } = splitPasted(line);
    if (!headerPassed) {
      headerPassed = true;
      if (isHeader(fields)) continue;
    }
    entries.push(entryOf(index + 1, fields, problem));
  }
  return checkedCount(entries);
}

/**
 * The lines of an uploaded XLSX or CSV whose header names QUICK_ORDER_COLUMNS (in any order; other
 * columns are ignored, so the cart's export reads back, its «Итого» row skipped), numbered by
 * their row in the file. Not a spreadsheet → 415; broken, no header, no lines or too many → 422.
 */
export async function readUploadedQuickOrder(file: Buffer): Promise<QuickOrderEntry[]> {
  const table = await readSheetTable(file, {
    // The header and the «Итого» row of the cart's own export beside the lines.
    maxRows: CART_IMPORT_MAX_LINES + 2,
    rowsAllowed: CART_IMPORT_MAX_LINES,
    maxUnzippedBytes: MAX_UNZIPPED_BYTES,
    maxCells: MAX_CELLS,
    maxHeapMb: MAX_READ_HEAP_MB,
    columns: QUICK_ORDER_COLUMNS,
  });
  if (table.headerRow === null) throw new UploadRefusedError('Файл пустой: нет ни заголовка, ни строк');
  if (table.missingColumns !== null) throw new UploadRefusedError(table.missingColumns);
  const entries: QuickOrderEntry[] = [];
  for (const { number, cells: fields } of table.rows) {
    if (fields.every((field) => field === null)) continue;
    const [art, color, size] = fields;
    if (typeof art === 'string' && art.trim().toLowerCase() === 'итого' && color === null && size === null) continue;
    entries.push(entryOf(number, fields));
  }
  return checkedCount(entries);
}

/** Colours compare as a buyer types them: any case, «ё» as «е», spaces collapsed. */
const colorKey = (color: string) => color.trim().replace(/\s+/g, ' ').toLowerCase().replaceAll('ё', 'е');

/**
 * The articles the entries name, to look up at once: none longer than an article can be, and none
 * with a NUL, which could not even be sent to the database (both are simply not found).
 */
export const namedArticles = (entries: readonly QuickOrderEntry[]) =>
  entries.flatMap((entry) =>
    entry.art && entry.art.length <= LIMITS.artMax && !entry.art.includes('\u0000') ? [entry.art] : [],
  );

const NO_VARIANT = {
  product_id: null,
  variant_id: null,
  name: null,
  price: null,
  stock: null,
  unproven_held: null,
  multiple: null,
  min_quantity: null,
};

/** Why the line's count, with what the cart holds of the variant, breaks its product's packaging. */
function packagingOfLine(inCart: number, count: number, variant: ArticleVariant): string | null {
  const problem = packagingProblem(
    inCart + count,
    { multiple: variant.multiple, min_quantity: variant.minQuantity },
    variant.stock,
  );
  if (problem === null) return null;
  return inCart > 0 ? `В корзине уже ${inCart} шт. этого варианта; вместе: ${problem.toLowerCase()}` : problem;
}

/**
 * Each entry with the variant it names and the first reason it cannot go in the cart, if any:
 * unknown article (a product off sale is not among `variants`), colour or size; out of stock (refused by the cart too);
 * the same variant on an earlier line; more than LIMITS.maxCartCount with what the cart holds.
 */
export function checkQuickOrder(
  entries: readonly QuickOrderEntry[],
  variants: readonly ArticleVariant[],
  countsInCart: ReadonlyMap<number, number>,
): CartImportResult {
  const byArticle = new Map<string, ArticleVariant[]>();
  for (const variant of variants) {
    const key = variant.art.toLowerCase();
    byArticle.set(key, [...(byArticle.get(key) ?? []), variant]);
  }
  const lineOfVariant = new Map<number, number>();

  const lines = entries.map((entry): CartImportLine => {
    const { line, art, color, size, count } = entry;
    const result: CartImportLine = { line, art, color, size, count, ...NO_VARIANT, error: entry.problem };
    const ofArticle = art === null ? undefined : byArticle.get(art.toLowerCase());
    if (art !== null && !ofArticle) return { ...result, error: result.error ?? `Артикул ${art} не найден` };
    if (!ofArticle || color === null || size === null) return result;
    const ofColor = ofArticle.filter((variant) => colorKey(variant.color) === colorKey(color));
    if (ofColor.length === 0) {
      const colors = [...new Set(ofArticle.map((variant) => variant.color))].join(', ');
      return {
        ...result,
        error: result.error ?? `Нет цвета ${color} у артикула ${ofArticle[0]!.art}; есть: ${colors}`,
      };
    }
    const variant = ofColor.find((candidate) => candidate.size === size);
    if (!variant) return { ...result, error: result.error ?? `Нет размера ${size} у цвета ${ofColor[0]!.color}` };

    const found: CartImportLine = {
      ...result,
      product_id: variant.productId,
      variant_id: variant.variantId,
      name: variant.productName,
      price: Number(variant.typePrice ?? variant.price),
      stock: variant.stock,
      unproven_held: variant.unprovenHeld,
      multiple: variant.multiple,
      min_quantity: variant.minQuantity,
    };
    const earlier = lineOfVariant.get(variant.variantId);
    if (earlier === undefined) lineOfVariant.set(variant.variantId, line);
    const inCart = countsInCart.get(variant.variantId) ?? 0;
    const error =
      found.error ??
      (variant.stock === 0 ? new SoldOutError(variant.productName).detail : null) ??
      (earlier !== undefined ? `Этот вариант уже есть в строке ${earlier}` : null) ??
      (count !== null && inCart + count > LIMITS.maxCartCount
        ? `В корзине уже ${inCart} шт. этого варианта, а вместе можно не больше ${LIMITS.maxCartCount}`
        : null) ??
      (count !== null ? packagingOfLine(inCart, count, variant) : null);
    return { ...found, error };
  });
  const invalid = lines.filter((line) => line.error !== null).length;
  return { lines, valid: lines.length - invalid, invalid };
}

const CART_COLUMNS: TableColumn[] = [
  { header: ORDER_LINE_COLUMNS[0], width: 16, kind: 'text' },
  { header: ORDER_LINE_COLUMNS[1], width: 40, kind: 'text' },
  { header: ORDER_LINE_COLUMNS[2], width: 16, kind: 'text' },
  { header: ORDER_LINE_COLUMNS[3], width: 10, kind: 'centimetres' },
  { header: ORDER_LINE_COLUMNS[4], width: 14, kind: 'kopecks' },
  { header: ORDER_LINE_COLUMNS[5], width: 12, kind: 'integer' },
  { header: ORDER_LINE_COLUMNS[6], width: 16, kind: 'kopecks' },
];

/**
 * The cart as a table: its lines that can be ordered (a product off sale is left out, as it is
 * left out of the cart's total) and a last row «Итого» with the pieces and the sum.
 */
export function writeCartSheet(cart: Cart, format: SpreadsheetFormat): Promise<Buffer> {
  const items = cart.items.filter((item) => item.available);
  const rows = items.map((item) => [
    item.product.art,
    item.product.name,
    item.variant.color,
    item.variant.size,
    rublesToKopecks(item.unit_price),
    item.count,
    rublesToKopecks(item.item_total),
  ]);
  const pieces = items.reduce((sum, item) => sum + item.count, 0);
  return writeTable(
    {
      sheetName: 'Корзина',
      columns: CART_COLUMNS,
      rows,
      totalRow: ['Итого', null, null, null, null, pieces, rublesToKopecks(cart.total_price)],
    },
    format,
  );
}
