import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { LIMITS } from '../../shared/limits';
import { CATALOGUE_LIMITS, priceProblem } from '../../shared/catalogue';
import { kopecksToRubles, rublesToKopecks } from '../../shared/money';
import { MAX_MULTIPLE, packagingSettingsProblem, type Packaging } from '../../shared/pricing';
import {
  EMPTY_CARD_VALUE,
  normalizeTnved,
  PRODUCT_CARD_LIMITS,
  type ProductCardFields,
  type VariantCardFields,
} from '../../shared/product-card';
import { PRICE_LIST_COLUMNS, PRICE_LIST_PACKAGING_COLUMNS } from '../../shared/schemas/admin-catalogue';
import {
  shownCell,
  unescapeFormula,
  writeTable,
  type Cell,
  type SpreadsheetFormat,
  type TableColumn,
} from './spreadsheet-file';
import { readSheetTable } from './spreadsheet-reader';
import {
  changedFields,
  describeVariant,
  rublesOrNone,
  samePackaging,
  variantKey,
  type NumberedRow,
  type PreviewedRow,
  type PriceListRow,
  type PriceListType,
  type RowError,
} from '../domain/price-list-rows';
import { BARCODE_COLUMN } from '../domain/price-list-plan';
import type { PreviewLayout } from '../repositories/price-list';

/**
 * The price list as a file: the export writes it as XLSX or CSV, the import reads either back and
 * checks every row before anything reaches the database (repositories/price-list.ts).
 */

/** Rows one import may hold: a catalogue many times the demo one, read in seconds. */
export const MAX_IMPORT_ROWS = 50_000;
export const MAX_PRICE_LIST_BYTES = 10 * 1024 * 1024;
/** What an XLSX may unpack into: 50 000 rows take about 25 MB of XML. */
const MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;
/**
 * Rows, cells and shared strings of a file (services/spreadsheet-file.ts): 50 000 rows of 9 text
 * columns (the price list has 9, and one more per price type beside the default).
 */
const MAX_CELLS = 1_000_000;
/**
 * The heap its read may take: twice what the most the cell budget allows needs (measured: 50 000
 * rows of 10 text columns, 1 050 000 in all, were read in a 384 MB heap, 3.4 s). Past the ceiling V8
 * stops the thread only at best, and may abort the process: the budget keeps a read well inside it.
 */
const MAX_READ_HEAP_MB = 768;
/** Errors listed at most; a file with more gets a last line saying how many were left out. */
const MAX_LISTED_ERRORS = 100;

const [ART, NAME, CATEGORY, COLOR, SIZE, PRICE, STOCK] = PRICE_LIST_COLUMNS;
const [MULTIPLE, MIN_QUANTITY] = PRICE_LIST_PACKAGING_COLUMNS;

/**
 * A marketplace card's columns (issue 41), each optional on its own: a file without one leaves that
 * field as it is; an empty cell clears it (a variant's marking: «нет»). In the export's order.
 */
const PRODUCT_CARD_COLUMNS = {
  brand: { header: 'Бренд', width: 20, kind: 'text' },
  material: { header: 'Материал', width: 20, kind: 'text' },
  filler: { header: 'Наполнитель', width: 20, kind: 'text' },
  age_from: { header: 'Возраст от', width: 11, kind: 'integer' },
  country_of_origin: { header: 'Страна производства', width: 20, kind: 'text' },
  tnved: { header: 'ТН ВЭД', width: 20, kind: 'text' },
} as const satisfies Record<keyof ProductCardFields, TableColumn>;
const VARIANT_CARD_COLUMNS = {
  barcode: { header: BARCODE_COLUMN, width: 16, kind: 'text' },
  marked: { header: 'Маркировка', width: 12, kind: 'text' },
  package_length_mm: { header: 'Длина упаковки, см', width: 12, kind: 'millimetres' },
  package_width_mm: { header: 'Ширина упаковки, см', width: 12, kind: 'millimetres' },
  package_height_mm: { header: 'Высота упаковки, см', width: 12, kind: 'millimetres' },
  weight_g: { header: 'Вес, г', width: 10, kind: 'integer' },
} as const satisfies Record<keyof VariantCardFields, TableColumn>;
type ProductCardField = keyof typeof PRODUCT_CARD_COLUMNS;
type VariantCardField = keyof typeof VARIANT_CARD_COLUMNS;
const PRODUCT_CARD_FIELDS = Object.keys(PRODUCT_CARD_COLUMNS) as ProductCardField[];
const VARIANT_CARD_FIELDS = Object.keys(VARIANT_CARD_COLUMNS) as VariantCardField[];
/** The columns a file may have beside the required ones besides the price types': the packaging's and the card's. */
const NAMED_OPTIONAL_COLUMNS: readonly string[] = [
  ...PRICE_LIST_PACKAGING_COLUMNS,
  ...Object.values(PRODUCT_CARD_COLUMNS).map((column) => column.header),
  ...Object.values(VARIANT_CARD_COLUMNS).map((column) => column.header),
];
const MARKED = { yes: 'да', no: 'нет' } as const;

type CardValue = ProductCardFields[ProductCardField] | VariantCardFields[VariantCardField];

/** A card field's cell as the price list writes it: the marking as «да» or «нет». */
const cardCell = (value: CardValue | undefined): Cell =>
  typeof value === 'boolean' ? (value ? MARKED.yes : MARKED.no) : (value ?? null);

/**
 * A price type's column: its name for people, its code in brackets for the import, which finds the
 * type by the code alone (the code never changes, so a renamed type's old file still imports).
 */
const priceTypeHeader = ({ name, code }: Pick<PriceListType, 'name' | 'code'>) => `Цена «${name}» [${code}]`;
/** The code in brackets that ends a price type's column header. */
const TYPE_CODE = /\[([^[\]]*)\]$/;
const escapedForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The columns a file may have beside the required ones: the packaging's, the card's and the price types'. */
const OPTIONAL_COLUMNS = new RegExp(
  `^(${NAMED_OPTIONAL_COLUMNS.map(escapedForRegExp).join('|')})$|${TYPE_CODE.source}`,
  'i',
);

/** The whole catalogue as a file: `rows` as the repository reads them for `types` (their other types' prices in that order). */
export function writePriceList(
  rows: PriceListRow[],
  types: readonly PriceListType[],
  format: SpreadsheetFormat,
): Promise<Buffer> {
  const typeHeaders = types.filter((type) => !type.isDefault).map(priceTypeHeader);
  const columns: TableColumn[] = [
    { header: ART, width: 16, kind: 'text' },
    { header: NAME, width: 40, kind: 'text' },
    { header: CATEGORY, width: 24, kind: 'text' },
    { header: COLOR, width: 16, kind: 'text' },
    { header: SIZE, width: 10, kind: 'centimetres' },
    { header: PRICE, width: 14, kind: 'kopecks' },
    ...typeHeaders.map((header): TableColumn => ({ header, width: Math.min(40, header.length), kind: 'kopecks' })),
    { header: MULTIPLE, width: 11, kind: 'integer' },
    { header: MIN_QUANTITY, width: 10, kind: 'integer' },
    ...PRODUCT_CARD_FIELDS.map((field) => PRODUCT_CARD_COLUMNS[field]),
    ...VARIANT_CARD_FIELDS.map((field) => VARIANT_CARD_COLUMNS[field]),
    // Last: the column a warehouse's stock list is pasted into most often.
    { header: STOCK, width: 12, kind: 'integer' },
  ];
  return writeTable(
    {
      sheetName: 'Прайс-лист',
      columns,
      rows: rows.map((row) => [
        row.art,
        row.name,
        row.category,
        row.color,
        row.size,
        row.priceKopecks,
        ...row.typePrices.map((price) => price.priceKopecks),
        row.packaging?.multiple ?? null,
        row.packaging?.min_quantity ?? null,
        ...PRODUCT_CARD_FIELDS.map((field) => cardCell(row.productCard[field])),
        ...VARIANT_CARD_FIELDS.map((field) => cardCell(row.variantCard[field])),
        row.stock,
      ]),
    },
    format,
  );
}

/**
 * Which optional columns a file has: its price types' (the header as written and the type's code,
 * by type id), the packaging's, and the card fields it has a column for.
 */
interface FileLayout {
  types: { header: string; code: string }[];
  packaging: boolean;
  productCard: ProductCardField[];
  variantCard: VariantCardField[];
}

/** The packaging's or a card field's column a header names, in any case, as the shop writes it. */
const namedColumnOf = (header: string) =>
  NAMED_OPTIONAL_COLUMNS.find((column) => column.toLowerCase() === header.toLowerCase());

/** The layout of a file's optional columns (`readSheetTable`'s `optionalColumns`), or what is wrong with them. */
function fileLayout(headers: string[], types: readonly PriceListType[]): FileLayout | string[] {
  const problems: string[] = [];
  const typeOfCode = new Map(types.map((type) => [type.code.toLowerCase(), type]));
  const typeColumns = new Map<number, { header: string; code: string }>();
  const named = new Set<string>();
  for (const header of headers) {
    const namedColumn = namedColumnOf(header);
    if (namedColumn) {
      if (named.has(namedColumn)) problems.push(`Столбец «${namedColumn}» в заголовке дважды: оставьте один`);
      named.add(namedColumn);
      continue;
    }
    const code = TYPE_CODE.exec(header)![1]!.trim();
    const type = typeOfCode.get(code.toLowerCase());
    if (!type) {
      const what = code === '' ? 'в квадратных скобках нет кода типа цен' : `типа цен с кодом «${code}» нет`;
      problems.push(
        `Столбец «${header}»: ${what}. Столбец цены типа называется, как в выгрузке: Цена «Название» [код]; коды — в разделе «Типы цен»`,
      );
    } else if (type.isDefault) {
      problems.push(`Столбец «${header}»: «${type.name}» — тип цен по умолчанию, его цены — в столбце «${PRICE}»`);
    } else if (typeColumns.has(type.id)) {
      problems.push(
        `Столбцы «${typeColumns.get(type.id)!.header}» и «${header}» — оба для типа цен «${type.name}»: оставьте один`,
      );
    } else {
      typeColumns.set(type.id, { header, code: type.code });
    }
  }
  const packaging = PRICE_LIST_PACKAGING_COLUMNS.filter((column) => named.has(column));
  if (packaging.length === 1) {
    const given = packaging[0]!;
    const missing = PRICE_LIST_PACKAGING_COLUMNS.find((column) => column !== given)!;
    problems.push(
      `В заголовке есть столбец «${given}», но нет «${missing}»: кратность и минимум задаются только вместе`,
    );
  }
  if (problems.length > 0) return problems;
  return {
    types: [...typeColumns].sort(([a], [b]) => a - b).map(([, column]) => column),
    packaging: packaging.length === 2,
    productCard: PRODUCT_CARD_FIELDS.filter((field) => named.has(PRODUCT_CARD_COLUMNS[field].header)),
    variantCard: VARIANT_CARD_FIELDS.filter((field) => named.has(VARIANT_CARD_COLUMNS[field].header)),
  };
}

/** Spaces between groups of digits, as spreadsheets and people write them. */
const DIGIT_GROUPING = /[\s\u00a0\u202f]/g;

/** «1 499,90», «1499.9» or «1500» as rubles; NaN for anything else. */
function rublesOfText(text: string): number {
  const digits = text.replace(DIGIT_GROUPING, '');
  return /^\d+([.,]\d+)?$/.test(digits) ? Number(digits.replace(',', '.')) : Number.NaN;
}

/** Reads one row's cells into a price-list row, or says what is wrong with each bad cell. */
class RowReader {
  readonly problems: string[] = [];

  constructor(private readonly cells: Map<string, Cell | Error>) {}

  private fail(column: string, what: string): undefined {
    this.problems.push(`Столбец «${column}»: ${what}`);
    return undefined;
  }

  private shown(value: Cell): string {
    return `«${String(value)}»`;
  }

  text(column: string, maxLength: number): string | undefined {
    const value = this.cells.get(column) ?? null;
    if (value instanceof Error) return this.fail(column, value.message);
    if (value === null) return this.fail(column, 'не заполнен');
    const text = unescapeFormula(String(value).trim());
    if (text.length > maxLength) return this.fail(column, `длиннее ${maxLength} символов`);
    if (text.includes('\u0000')) return this.fail(column, 'недопустимый символ');
    return text;
  }

  /** A whole number from `min` to `max`, given as a number or as digits (spaces between groups allowed). */
  integer(column: string, min: number, max: number, rule: string): number | undefined {
    const value = this.cells.get(column) ?? null;
    if (value instanceof Error) return this.fail(column, value.message);
    if (value === null) return this.fail(column, `не заполнен; нужно ${rule}`);
    const digits = typeof value === 'number' ? String(value) : value.replace(DIGIT_GROUPING, '');
    const number = /^-?\d+$/.test(digits) ? Number(digits) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      return this.fail(column, `${this.shown(value)} — нужно ${rule}`);
    }
    return number;
  }

  /** Rubles with at most two digits of kopecks, more than zero: 1500, 1499,9 or 1 499.90. */
  priceKopecks(column: string): number | undefined {
    const rule = 'цена в рублях больше нуля, не более двух знаков после запятой (например, 1499,90)';
    const value = this.cells.get(column) ?? null;
    if (value instanceof Error) return this.fail(column, value.message);
    if (value === null) return this.fail(column, `не заполнен; нужна ${rule}`);
    // A number as the spreadsheet shows it, to 15 significant digits: a formula's =1.1*3 is
    // 3.3000000000000003 in the file and 3,30 on the screen.
    const rubles = typeof value === 'number' ? Number(value.toPrecision(15)) : rublesOfText(value);
    // The back office's own rule for a price (more than zero, whole kopecks), and what numeric(12,2) holds.
    if (priceProblem(rubles) !== null || rubles > CATALOGUE_LIMITS.priceMax) {
      return this.fail(column, `${this.shown(value)} — нужна ${rule}`);
    }
    return rublesToKopecks(rubles);
  }

  /** Text, or null for an empty cell. */
  optionalText(column: string, maxLength: number): string | null | undefined {
    return (this.cells.get(column) ?? null) === null ? null : this.text(column, maxLength);
  }

  /** A whole number as `integer` reads it, or null for an empty cell. */
  optionalInteger(column: string, min: number, max: number, rule: string): number | null | undefined {
    return (this.cells.get(column) ?? null) === null ? null : this.integer(column, min, max, rule);
  }

  /** The ТН ВЭД code's 10 digits (spaces between groups allowed), or null for an empty cell. */
  tnved(column: string): string | null | undefined {
    const text = this.optionalText(column, PRODUCT_CARD_LIMITS.textMax);
    if (text === null || text === undefined) return text;
    return normalizeTnved(text) ?? this.fail(column, `«${text}» — нужен код из 10 цифр (например, 9503004100)`);
  }

  /** «да» or «нет»; an empty cell is «нет». */
  marked(column: string): boolean | undefined {
    const text = this.optionalText(column, 10);
    if (text === null) return false;
    if (text === undefined) return undefined;
    const answer = text.toLowerCase();
    if (answer === MARKED.yes || answer === MARKED.no) return answer === MARKED.yes;
    return this.fail(column, `«${text}» — нужно «${MARKED.yes}» или «${MARKED.no}»`);
  }

  /** Centimetres with at most one decimal (12,5), more than zero, as millimetres; null for an empty cell. */
  millimetres(column: string): number | null | undefined {
    const value = this.cells.get(column) ?? null;
    if (value instanceof Error) return this.fail(column, value.message);
    if (value === null) return null;
    const centimetres = typeof value === 'number' ? Number(value.toPrecision(15)) : rublesOfText(value);
    const millimetres = centimetres * 10;
    if (
      !(centimetres > 0 && centimetres <= PRODUCT_CARD_LIMITS.sideCmMax) ||
      Math.abs(millimetres - Math.round(millimetres)) > 1e-9
    ) {
      return this.fail(
        column,
        `${this.shown(value)} — нужны сантиметры больше нуля и не более ${PRODUCT_CARD_LIMITS.sideCmMax}, с одним знаком после запятой (например, 12,5)`,
      );
    }
    return Math.round(millimetres);
  }

  productCardField(field: ProductCardField): ProductCardFields[ProductCardField] | undefined {
    const column = PRODUCT_CARD_COLUMNS[field].header;
    if (field === 'tnved') return this.tnved(column);
    if (field === 'age_from') {
      const max = PRODUCT_CARD_LIMITS.ageFromMax;
      return this.optionalInteger(column, 0, max, `целое число лет от 0 до ${max}`);
    }
    return this.optionalText(column, PRODUCT_CARD_LIMITS.textMax);
  }

  variantCardField(field: VariantCardField): VariantCardFields[VariantCardField] | undefined {
    const column = VARIANT_CARD_COLUMNS[field].header;
    if (field === 'barcode') return this.optionalText(column, PRODUCT_CARD_LIMITS.barcodeMax);
    if (field === 'marked') return this.marked(column);
    if (field === 'weight_g') {
      const max = PRODUCT_CARD_LIMITS.weightGMax;
      return this.optionalInteger(
        column,
        1,
        max,
        `целое число граммов больше нуля, не более ${max.toLocaleString('ru-RU')}`,
      );
    }
    return this.millimetres(column);
  }

  /** A price as `priceKopecks` reads it, or null for an empty cell: no price of that type. */
  typePriceKopecks(column: string): number | null | undefined {
    return (this.cells.get(column) ?? null) === null ? null : this.priceKopecks(column);
  }

  /** The product's кратность and minimum: whole numbers of pieces, the minimum a multiple of the кратность. */
  packaging(): Packaging | undefined {
    const rule = `целое число штук от 1 до ${MAX_MULTIPLE.toLocaleString('ru-RU')}`;
    const multiple = this.integer(MULTIPLE, 1, MAX_MULTIPLE, rule);
    const minQuantity = this.integer(MIN_QUANTITY, 1, MAX_MULTIPLE, rule);
    if (multiple === undefined || minQuantity === undefined) return undefined;
    const packaging = { multiple, min_quantity: minQuantity };
    const problem = packagingSettingsProblem(packaging);
    if (problem === null) return packaging;
    return this.fail(MIN_QUANTITY, problem.charAt(0).toLowerCase() + problem.slice(1));
  }
}

function readRow(cells: Map<string, Cell | Error>, layout: FileLayout): PriceListRow | string[] {
  const reader = new RowReader(cells);
  const row = {
    art: reader.text(ART, LIMITS.artMax),
    name: reader.text(NAME, LIMITS.nameMax),
    category: reader.text(CATEGORY, CATALOGUE_LIMITS.categoryNameMax),
    color: reader.text(COLOR, CATALOGUE_LIMITS.colorMax),
    size: reader.integer(
      SIZE,
      1,
      CATALOGUE_LIMITS.sizeMax,
      `целое число сантиметров от 1 до ${CATALOGUE_LIMITS.sizeMax}`,
    ),
    priceKopecks: reader.priceKopecks(PRICE),
    // An empty cell is no price of that type, as the export writes it: the file says what the
    // prices are to be, and a manager clears a cell to have the type's buyers pay the default price.
    typePrices: layout.types.map(({ header, code }) => ({ code, priceKopecks: reader.typePriceKopecks(header) })),
    stock: reader.integer(STOCK, 0, CATALOGUE_LIMITS.stockMax, 'целое число штук, 0 или больше'),
    packaging: layout.packaging ? reader.packaging() : null,
    productCard: Object.fromEntries(layout.productCard.map((field) => [field, reader.productCardField(field)])),
    variantCard: Object.fromEntries(layout.variantCard.map((field) => [field, reader.variantCardField(field)])),
  };
  if (reader.problems.length > 0) return reader.problems;
  return row as PriceListRow;
}

/** The first card field of the product two rows of one article give differently. */
const differingCardField = (first: PriceListRow, row: PriceListRow) =>
  (Object.keys(row.productCard) as ProductCardField[]).find(
    (field) => first.productCard[field] !== row.productCard[field],
  );

const shownCardValue = (value: string | number | null | undefined) =>
  value === null || value === undefined ? EMPTY_CARD_VALUE : `«${value}»`;

/** At most MAX_LISTED_ERRORS, the last saying how many more there were. */
export function listedErrors(errors: RowError[]): RowError[] {
  if (errors.length <= MAX_LISTED_ERRORS) return errors;
  const shown = errors.slice(0, MAX_LISTED_ERRORS - 1);
  const next = errors[MAX_LISTED_ERRORS - 1]!;
  return [
    ...shown,
    { row: next.row, detail: `И ещё ошибок: ${errors.length - shown.length}. Исправьте эти и загрузите файл снова` },
  ];
}

/**
 * The rows of an uploaded price list (XLSX or CSV, told apart by content), each checked: the
 * header names every required column (in any order; columns it does not know are ignored), and
 * its price types' columns name types of `types` by code; each value is valid, no variant appears
 * twice, and the rows of one article agree on its name, category and packaging. Empty rows are
 * skipped. Problems that only the database can find are the repository's.
 */
export async function readPriceList(
  file: Buffer,
  types: readonly PriceListType[],
): Promise<{ rows: NumberedRow[]; errors: RowError[] }> {
  const table = await readSheetTable(file, {
    maxRows: MAX_IMPORT_ROWS + 1,
    rowsAllowed: MAX_IMPORT_ROWS,
    maxUnzippedBytes: MAX_UNZIPPED_BYTES,
    maxCells: MAX_CELLS,
    maxHeapMb: MAX_READ_HEAP_MB,
    columns: PRICE_LIST_COLUMNS,
    optionalColumns: OPTIONAL_COLUMNS,
  });
  const { headerRow, missingColumns, optionalColumns, rows: lines } = table;
  if (headerRow === null) return { rows: [], errors: [{ row: 1, detail: 'Файл пустой: нет ни заголовка, ни строк' }] };
  if (missingColumns !== null) return { rows: [], errors: [{ row: headerRow, detail: missingColumns }] };
  const layout = fileLayout(optionalColumns, types);
  if (Array.isArray(layout)) return { rows: [], errors: layout.map((detail) => ({ row: headerRow, detail })) };
  if (lines.length === 0) return { rows: [], errors: [{ row: headerRow, detail: 'В файле нет строк с товарами' }] };
  if (lines.length > MAX_IMPORT_ROWS) {
    return {
      rows: [],
      errors: [{ row: headerRow, detail: `Слишком много строк: не более ${MAX_IMPORT_ROWS} за один раз` }],
    };
  }

  const rows: NumberedRow[] = [];
  const errors: RowError[] = [];
  const seen = new Map<string, number>();
  const firstOfArticle = new Map<string, NumberedRow>();
  // The cells' keys: the required columns' and the packaging's names, a price type's header as written.
  const keys = [...PRICE_LIST_COLUMNS, ...optionalColumns.map((header) => namedColumnOf(header) ?? header)];
  for (const line of lines) {
    const cells = new Map(keys.map((key, index) => [key, line.cells[index] ?? null]));
    if ([...cells.values()].every((cell) => cell === null)) continue;
    const read = readRow(cells, layout);
    if (Array.isArray(read)) {
      errors.push(...read.map((detail) => ({ row: line.number, detail })));
      continue;
    }
    const row = { ...read, row: line.number };
    const key = variantKey(row);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ row: row.row, detail: `Вариант ${describeVariant(row)} уже есть в строке ${earlier}` });
      continue;
    }
    seen.set(key, row.row);
    const first = firstOfArticle.get(row.art);
    if (first && first.name !== row.name) {
      errors.push({
        row: row.row,
        detail: `Столбец «${NAME}»: у артикула «${row.art}» в строке ${first.row} название «${first.name}»; у всех вариантов товара оно одно`,
      });
    } else if (first && first.category !== row.category) {
      errors.push({
        row: row.row,
        detail: `Столбец «${CATEGORY}»: у артикула «${row.art}» в строке ${first.row} категория «${first.category}»; у всех вариантов товара она одна`,
      });
    } else if (first?.packaging && !samePackaging(first.packaging, row.packaging)) {
      errors.push({
        row: row.row,
        detail: `Столбцы «${MULTIPLE}» и «${MIN_QUANTITY}»: у артикула «${row.art}» в строке ${first.row} кратность ${first.packaging.multiple} и минимум ${first.packaging.min_quantity}; у всех вариантов товара они одни`,
      });
    } else if (first && differingCardField(first, row)) {
      const field = differingCardField(first, row)!;
      errors.push({
        row: row.row,
        detail: `Столбец «${PRODUCT_CARD_COLUMNS[field].header}»: у артикула «${row.art}» в строке ${first.row} — ${shownCardValue(first.productCard[field])}; у всех вариантов товара значение одно`,
      });
    } else {
      if (!first) firstOfArticle.set(row.art, row);
      rows.push(row);
    }
  }
  if (rows.length === 0 && errors.length === 0) {
    errors.push({ row: headerRow, detail: 'В файле нет строк с товарами' });
  }
  return { rows, errors };
}

/** A card field a previewed row changes: its column, and its cell before and after as the price list shows it (null: empty). */
export interface CardChange {
  column: string;
  before: string | null;
  after: string | null;
}

/** The fields of `columns` whose values `after` changes from `before`, in the columns' order; none when there is no `before`. */
function changedCardCells<Field extends string>(
  columns: Record<Field, TableColumn>,
  before: Partial<Record<Field, CardValue>> | null,
  after: Partial<Record<Field, CardValue>>,
): CardChange[] {
  const changed = before && changedFields(before, after);
  if (!changed) return [];
  return (Object.keys(columns) as Field[])
    .filter((field) => Object.hasOwn(changed.after, field))
    .map((field) => ({
      column: columns[field].header,
      before: shownCell(cardCell(changed.before[field]), columns[field].kind),
      after: shownCell(cardCell(changed.after[field]), columns[field].kind),
    }));
}

/**
 * The card fields a previewed row changes, the product's then the variant's, written as the price
 * list writes them: exactly those that make the plan count a known variant's row as changed
 * (`changedFields` over the same values), so a row without such a change lists none. A new
 * variant's own fields are its first values, not a change; a new variant of a known product may
 * still change the product's. A column the file lacks changes nothing and is not listed.
 */
export const cardChangesOf = (row: PreviewedRow): CardChange[] => [
  ...changedCardCells(PRODUCT_CARD_COLUMNS, row.oldProductCard, row.productCard),
  ...changedCardCells(VARIANT_CARD_COLUMNS, row.oldVariantCard, row.variantCard),
];

/** «Бренд: Плюшевый мир → Мягкий Опт; Штрихкод: пусто → 4607001234562». */
const describedCardChanges = (changes: CardChange[]) =>
  changes
    .map(({ column, before, after }) => `${column}: ${before ?? EMPTY_CARD_VALUE} → ${after ?? EMPTY_CARD_VALUE}`)
    .join('; ');

const CHANGE_KINDS: Record<PreviewedRow['kind'], string> = {
  created: 'новый вариант',
  updated: 'изменение',
  unchanged: 'без изменений',
};

interface PreviewColumn {
  header: string;
  width: number;
  money?: boolean;
  cell(row: PreviewedRow): Cell;
}

const cardChangesColumn: PreviewColumn = {
  header: 'Карточка: что меняется',
  width: 60,
  cell: (row) => describedCardChanges(cardChangesOf(row)) || null,
};

/**
 * The changes file's columns: the price types', the packaging's and the card's only when the checked
 * file had them. An empty cell of a type's price is no price of that type, as in the price list.
 */
function previewColumns({ priceTypes, packaging, card }: PreviewLayout): PreviewColumn[] {
  const packagingColumns: PreviewColumn[] = [
    { header: `${MULTIPLE} была`, width: 14, cell: (row) => row.oldPackaging?.multiple ?? null },
    { header: `${MULTIPLE} стала`, width: 14, cell: (row) => row.packaging?.multiple ?? null },
    { header: `${MIN_QUANTITY} был`, width: 14, cell: (row) => row.oldPackaging?.min_quantity ?? null },
    { header: `${MIN_QUANTITY} стал`, width: 14, cell: (row) => row.packaging?.min_quantity ?? null },
  ];
  return [
    { header: 'Строка', width: 8, cell: (row) => row.row },
    { header: 'Что', width: 16, cell: (row) => (row.newProduct ? 'новый товар' : CHANGE_KINDS[row.kind]) },
    { header: ART, width: 16, cell: (row) => row.art },
    { header: COLOR, width: 16, cell: (row) => row.color },
    { header: SIZE, width: 10, cell: (row) => row.size },
    { header: 'Цена было', width: 14, money: true, cell: (row) => rublesOrNone(row.oldPriceKopecks) },
    { header: 'Цена стало', width: 14, money: true, cell: (row) => kopecksToRubles(row.priceKopecks) },
    ...priceTypes.flatMap(({ name }, index): PreviewColumn[] => [
      {
        header: `Цена «${name}» было`,
        width: 18,
        money: true,
        cell: (row) => rublesOrNone(row.oldTypePrices[index] ?? null),
      },
      {
        header: `Цена «${name}» стало`,
        width: 18,
        money: true,
        cell: (row) => rublesOrNone(row.typePrices[index]?.priceKopecks ?? null),
      },
    ]),
    ...(packaging ? packagingColumns : []),
    { header: 'Остаток было', width: 14, cell: (row) => row.oldStock },
    { header: 'Остаток стало', width: 14, cell: (row) => row.stock },
    { header: 'Название было', width: 40, cell: (row) => row.oldName },
    { header: NAME, width: 40, cell: (row) => row.name },
    { header: 'Категория была', width: 24, cell: (row) => row.oldCategory },
    { header: CATEGORY, width: 24, cell: (row) => row.category },
    ...(card ? [cardChangesColumn] : []),
  ];
}

/**
 * A preview's changes as XLSX, written into `stream` as its rows are read: exceljs's streaming
 * writer commits each row, so a file of hundreds of thousands of rows never sits whole in memory.
 * Text goes into string cells (inline, no shared-strings table to keep), which no spreadsheet runs
 * as a formula.
 */
export async function writePreviewChanges(
  layout: PreviewLayout,
  batches: AsyncIterable<PreviewedRow[]>,
  stream: Writable,
): Promise<void> {
  const columns = previewColumns(layout);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Изменения', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map(({ header, width, money }) => ({
    header,
    width,
    ...(money && { style: { numFmt: '#,##0.00' } }),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  for await (const rows of batches) {
    for (const row of rows) sheet.addRow(columns.map((column) => column.cell(row))).commit();
  }
  sheet.commit();
  await workbook.commit();
}
