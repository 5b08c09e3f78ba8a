import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { UnsupportedFileTypeError, UploadRefusedError } from '../domain/domain-errors';
import { kopecksToDecimal, kopecksToRubles } from '../../shared/money';
import { storedZipOf, unpackZip, type UnpackedZip } from './zip-limits';

/**
 * Tables as files a buyer or a manager opens in Excel and uploads back: the price list, the
 * cart's export and the quick order read and write them here, as XLSX or as CSV for Russian Excel.
 */

export type SpreadsheetFormat = 'xlsx' | 'csv';

export const SPREADSHEET_CONTENT_TYPES: Record<SpreadsheetFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

// Spreadsheets run a cell that begins with one of these as a formula (CSV injection, OWASP): the
// CSV export writes such text behind an apostrophe, the way Excel itself marks text, and the
// import takes that apostrophe off again, so the text survives the round trip unchanged.
const FORMULA_START = /^[=+\-@\t\r]/;
const escapeFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);
export const unescapeFormula = (text: string) =>
  text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;

/**
 * How a column's values are written: text, whole numbers, sizes in centimetres, money given in whole
 * kopecks, or lengths given in millimetres written as centimetres (12,5).
 */
export type ColumnKind = 'text' | 'integer' | 'centimetres' | 'kopecks' | 'millimetres';

export interface TableColumn {
  header: string;
  width: number;
  kind: ColumnKind;
}

/** A table to write: one value a column per row (null leaves the cell empty), and a bold last row if any. */
export interface Table {
  sheetName: string;
  columns: readonly TableColumn[];
  rows: (string | number | null)[][];
  totalRow?: (string | number | null)[];
}

/**
 * Number formats of XLSX cells that stay numbers (sums, sorting, and the import reads them back):
 * Excel draws «1 599,50 ₽» as src/shared/money.ts writes money elsewhere, and «25 см»,
 * with the reader's own group and decimal separators.
 */
export const XLSX_FORMATS = {
  rubles: '#,##0.00"\u00a0₽"',
  centimetres: '0"\u00a0см"',
  tenths: '0.0',
} as const;

/** «1 499,90»: the decimal comma a Russian Excel reads as a number. */
const rublesWithComma = (kopecks: number) => kopecksToDecimal(kopecks).replace('.', ',');

/** A value as a column of `kind` writes it into the cell of a file of `format`. */
function cellOf(value: string | number | null, kind: ColumnKind, format: SpreadsheetFormat) {
  if (value === null) return value;
  if (kind === 'millimetres') {
    return format === 'xlsx' ? Number(value) / 10 : String(Number(value) / 10).replace('.', ',');
  }
  if (kind !== 'kopecks') return value;
  return format === 'xlsx' ? kopecksToRubles(Number(value)) : rublesWithComma(Number(value));
}

/** A value as a column of `kind` shows it to a person: the CSV's text («25,5», «1499,90»); null for an empty cell. */
export function shownCell(value: string | number | null, kind: ColumnKind): string | null {
  const cell = cellOf(value, kind, 'csv');
  return cell === null ? null : String(cell);
}

/**
 * The table as a file with the header row first (bold, frozen). XLSX: text in string cells, which
 * a spreadsheet never runs as a formula, numbers as numbers. CSV: what a Russian Excel opens with
 * a double click.
 */
export async function writeTable(table: Table, format: SpreadsheetFormat): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(table.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = table.columns.map(({ header, width }) => ({ header, width }));
  sheet.getRow(1).font = { bold: true };
  const lines = table.totalRow ? [...table.rows, table.totalRow] : table.rows;
  for (const line of lines) {
    const cells = table.columns.map((column, index) => cellOf(line[index] ?? null, column.kind, format));
    const row = sheet.addRow(
      format === 'csv' ? cells.map((cell) => (typeof cell === 'string' ? escapeFormula(cell) : cell)) : cells,
    );
    if (line === table.totalRow) row.font = { bold: true };
  }
  if (format === 'xlsx') {
    table.columns.forEach((column, index) => {
      if (column.kind === 'kopecks') sheet.getColumn(index + 1).numFmt = XLSX_FORMATS.rubles;
      if (column.kind === 'centimetres') sheet.getColumn(index + 1).numFmt = XLSX_FORMATS.centimetres;
      if (column.kind === 'millimetres') sheet.getColumn(index + 1).numFmt = XLSX_FORMATS.tenths;
    });
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }
  // UTF-8 with a BOM (else Excel guesses Windows-1251), «;» between fields (the comma is the
  // decimal separator), CRLF, text always in quotes.
  return Buffer.from(
    await workbook.csv.writeBuffer({
      formatterOptions: {
        delimiter: ';',
        rowDelimiter: '\r\n',
        writeBOM: true,
        quoteColumns: table.columns.map((column) => column.kind === 'text'),
      },
    }),
  );
}

export type Cell = string | number | null;

/** A spreadsheet cell as text or a number; formulas by their result, anything else refused. */
export function cellValue(value: ExcelJS.CellValue): Cell | Error {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean' || value instanceof Date) return new Error('здесь дата или логическое значение');
  if ('richText' in value) return cellValue(value.richText.map((run) => run.text).join(''));
  if ('error' in value) return new Error(`в ячейке ошибка ${value.error}`);
  if ('result' in value) return cellValue((value.result ?? null) as ExcelJS.CellValue);
  if ('text' in value) return cellValue(value.text);
  return new Error('значение не прочитано');
}

/** Text of an uploaded file: UTF-8 (with or without a BOM), or else the Windows-1251 older Excel saves in. */
export function decodeText(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file);
  } catch {
    return new TextDecoder('windows-1251').decode(file);
  }
}

/** The field separator of the header line: «;» as Russian Excel writes, or «,» or a tab. */
function csvDelimiter(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [';', ',', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const isZip = (file: Buffer) => file.length >= 4 && file.readUInt32BE(0) === 0x504b0304;
/** Binary files (PDF, images, the old .xls) have NUL bytes early on; text has none. */
const looksLikeText = (file: Buffer) => !file.subarray(0, 8192).includes(0);

/** Empty rows a CSV may have beside its rows with text, as a multiple of those allowed. */
const EMPTY_ROWS_ALLOWANCE = 4;

/**
 * The parts of a workbook exceljs 4.4 reads (lib/xlsx/xlsx.js) that bear on a sheet's cells and
 * what they refer to (shared strings, styles, hyperlinks' relations, comments, tables, drawings and
 * their images). exceljs inflates every part of an archive, those it then ignores too: themes,
 * document properties and everything else are left out of what it is given.
 */
const PART_TO_READ =
  /^(\[Content_Types\]\.xml|_rels\/\.rels|xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|styles\.xml|worksheets\/sheet\d+\.xml|worksheets\/_rels\/sheet\d+\.xml\.rels|comments\d+\.xml|tables\/table\d+\.xml|drawings\/\w+\.(xml|vml)|drawings\/_rels\/\w+\.xml\.rels|media\/\w+\.\w{3,4}))$/;

const partsToRead = (parts: UnpackedZip): UnpackedZip =>
  new Map([...parts].filter(([name]) => PART_TO_READ.test(name)));

const WORKSHEET_PART = /^xl\/worksheets\/sheet\d+\.xml$/;
/**
 * What exceljs spreads over every cell of its range: a data validation or a merge given for whole
 * columns («A1:XFD1048576») is 17 billion entries. Neither changes a cell's value (a merge keeps its
 * value in its first cell), so they are taken out of the sheets before exceljs reads them.
 */
const EXPANDED_RANGE_START = /<(mergeCells|dataValidations)(?=[\s/>])/g;
/** The elements exceljs makes an object of, one each: rows, cells and shared strings. */
const COUNTED_ELEMENT = /<(row|c|si)[\s>/]/g;

/**
 * The sheet without its merges and data validations, or null when one is never closed. Found with
 * indexOf from where the last one ended, never a pattern that could look back over the text: its
 * time grows with the sheet's length whatever it holds (a lazy pattern took seconds over many
 * unclosed tags).
 */
function withoutExpandedRanges(xml: string): string | null {
  const kept: string[] = [];
  let from = 0;
  EXPANDED_RANGE_START.lastIndex = 0;
  for (let start = EXPANDED_RANGE_START.exec(xml); start; start = EXPANDED_RANGE_START.exec(xml)) {
    const tagEnd = xml.indexOf('>', EXPANDED_RANGE_START.lastIndex);
    if (tagEnd < 0) return null;
    let end = tagEnd + 1;
    if (xml[tagEnd - 1] !== '/') {
      const closing = xml.indexOf(`</${start[1]}>`, end);
      if (closing < 0) return null;
      end = closing + start[1]!.length + 3;
    }
    kept.push(xml.slice(from, start.index));
    from = end;
    EXPANDED_RANGE_START.lastIndex = end;
  }
  kept.push(xml.slice(from));
  return kept.join('');
}

/**
 * The parts exceljs is given, ranges taken out of the sheets, unless their rows, cells and shared
 * strings together come to more than `maxCells` (counted in the XML before exceljs builds a thing)
 * or a sheet's range is never closed.
 */
function workbookToRead(parts: UnpackedZip, maxCells: number): UnpackedZip | 'too many cells' | 'broken' {
  const toRead = partsToRead(parts);
  let cells = 0;
  for (const [name, content] of toRead) {
    if (!WORKSHEET_PART.test(name) && name !== 'xl/sharedStrings.xml') continue;
    // latin1: one character a byte, and the tags are ASCII whatever the text's encoding.
    const xml = content.toString('latin1');
    cells += xml.match(COUNTED_ELEMENT)?.length ?? 0;
    if (cells > maxCells) return 'too many cells';
    if (!WORKSHEET_PART.test(name)) continue;
    const sheet = withoutExpandedRanges(xml);
    if (sheet === null) return 'broken';
    toRead.set(name, Buffer.from(sheet, 'latin1'));
  }
  return toRead;
}

export interface WorksheetLimits {
  /**
   * CSV rows with text a file may have (the header and any total row included); one with more is
   * refused, never cut short.
   */
  maxRows: number;
  /** The rows of goods the reader allows, as the refusal names them. */
  rowsAllowed: number;
  /** What an XLSX may unpack into (a small file that unpacks into gigabytes is a zip bomb). */
  maxUnzippedBytes: number;
  /**
   * Cells a file may have, counted before it is read: an XLSX's rows, cells and shared strings, a
   * CSV's fields. What exceljs holds in memory grows with them, not with the file's size.
   */
  maxCells: number;
}

const tooManyCells = (limits: WorksheetLimits) =>
  new UploadRefusedError(
    `В файле слишком много ячеек (больше ${limits.maxCells.toLocaleString('ru-RU')}): оставьте только нужные столбцы и строки или разделите файл на части`,
  );

/**
 * Refuses, by its first bytes, a file that cannot be a spreadsheet: empty (422), or neither an
 * archive (XLSX) nor text (CSV) (415). Cheap, so checked before a thread is started to read it.
 */
export function assertSpreadsheetKind(file: Buffer): void {
  if (isZip(file)) return;
  if (file.length === 0) throw new UploadRefusedError('Файл пустой (0 байт)');
  if (!looksLikeText(file)) {
    throw new UnsupportedFileTypeError(
      'Нужен файл XLSX или CSV (старый формат XLS: сохраните файл как «Книга Excel (.xlsx)»)',
    );
  }
}

/**
 * The first sheet of an uploaded XLSX or CSV, told apart by content: a file that is neither is
 * 415, a broken one or one unpacking beyond the limit 422 {detail}.
 */
export async function readWorksheet(file: Buffer, limits: WorksheetLimits): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  if (isZip(file)) {
    const parts = unpackZip(file, limits.maxUnzippedBytes);
    if (!parts) {
      throw new UploadRefusedError(
        `Файл XLSX повреждён или распаковывается больше чем в ${limits.maxUnzippedBytes / (1024 * 1024)} МБ: сохраните его заново или разделите на части`,
      );
    }
    const brokenWorkbook = () =>
      new UploadRefusedError('Файл XLSX повреждён или это не таблица Excel: сохраните его заново и загрузите ещё раз');
    const toRead = workbookToRead(parts, limits.maxCells);
    if (toRead === 'too many cells') throw tooManyCells(limits);
    if (toRead === 'broken') throw brokenWorkbook();
    try {
      const workbookZip = storedZipOf(toRead);
      // exceljs types its input as an ArrayBuffer: the archive's own bytes, which a buffer this
      // large has to itself (only small ones share Node's pool), so no copy of them is made.
      const ownBytes = workbookZip.byteOffset === 0 && workbookZip.byteLength === workbookZip.buffer.byteLength;
      await workbook.xlsx.load(
        (ownBytes
          ? workbookZip.buffer
          : workbookZip.buffer.slice(
              workbookZip.byteOffset,
              workbookZip.byteOffset + workbookZip.byteLength,
            )) as ArrayBuffer,
      );
    } catch {
      throw brokenWorkbook();
    }
    const [sheet] = workbook.worksheets;
    if (!sheet) throw new UploadRefusedError('В файле XLSX нет ни одного листа');
    return sheet;
  }
  assertSpreadsheetKind(file);
  const text = decodeText(file);
  // Counted before parsing, so that a file with too many rows is refused rather than cut short
  // (the rows after the parser's limit would be silently left out). Rows with only separators or
  // spaces, as Excel writes formatted empty rows, are not rows of goods.
  const rowsWithText = text.split(/\r\n|\r|\n/).filter((row) => /[^\s;,"]/.test(row)).length;
  if (rowsWithText > limits.maxRows) {
    throw new UploadRefusedError(
      `Слишком много строк: за один раз можно не более ${limits.rowsAllowed}. Разделите файл на части`,
    );
  }
  // Every separator counted as a field's, those inside quotes too: the bound errs on the safe side.
  const delimiter = csvDelimiter(text);
  if (text.split(delimiter).length > limits.maxCells) throw tooManyCells(limits);
  // Empty rows are parsed too (the row numbers stay the file's), up to a bound on what they may cost.
  const parsedRowsMax = limits.maxRows * EMPTY_ROWS_ALLOWANCE;
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = await workbook.csv.read(Readable.from(Buffer.from(text)), {
      // Every field stays the text it is: exceljs would otherwise turn «2024-01-01» into a date.
      map: (value: string) => value,
      parserOptions: { delimiter, maxRows: parsedRowsMax },
    });
  } catch {
    throw new UploadRefusedError('Файл CSV не прочитан: проверьте кавычки в значениях');
  }
  if (sheet.rowCount >= parsedRowsMax) {
    throw new UploadRefusedError('В файле CSV слишком много пустых строк: удалите их и загрузите файл снова');
  }
  return sheet;
}

/** A non-empty row of a sheet: its number there (from 1) and its cells from the first column, as `cellValue` reads them. */
export interface SheetRow {
  number: number;
  cells: (Cell | Error)[];
}

/** The sheet's non-empty rows, in order. */
function sheetRows(sheet: ExcelJS.Worksheet): SheetRow[] {
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    // exceljs numbers cells from 1: values[0] is always empty. A gap between cells is null, not a hole.
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    rows.push({ number, cells: Array.from(values, (value) => cellValue(value)) });
  });
  return rows;
}

/**
 * Where each of `columns` is in a header row (named in any order and case; other columns are
 * ignored), or the detail saying which are missing.
 */
function columnPositions<Column extends string>(
  header: SheetRow,
  columns: readonly Column[],
): Map<Column, number> | string {
  const names = header.cells.map((cell) =>
    cell === null || cell instanceof Error ? '' : String(cell).trim().toLowerCase(),
  );
  const positions = new Map<Column, number>();
  for (const column of columns) {
    const index = names.indexOf(column.toLowerCase());
    if (index >= 0) positions.set(column, index);
  }
  const missing = columns.filter((column) => !positions.has(column));
  if (missing.length === 0) return positions;
  return `В заголовке нет столбцов: ${missing.map((column) => `«${column}»`).join(', ')}. Первая строка должна называть столбцы: ${columns.join(', ')}`;
}

/** The rows of a sheet below its header, with the cells of the columns asked for only. */
export interface SheetTable {
  /** The header's row number; null when the sheet has no rows at all. */
  headerRow: number | null;
  /** What the header lacks, as a refusal says it (then there are no rows); null when it names every column. */
  missingColumns: string | null;
  /** The header's other columns that match the optional pattern, as written there (trimmed), in its order. */
  optionalColumns: string[];
  /** The non-empty rows after the header, each with the cells of `columns`, then of `optionalColumns`. */
  rows: SheetRow[];
}

/**
 * The sheet's first non-empty row taken for the header naming `columns` (in any order and case),
 * with the other columns whose header matches `optional` (which a file may have or not); the rest
 * are left out. And the rows after it.
 */
export function sheetTable(sheet: ExcelJS.Worksheet, columns: readonly string[], optional?: RegExp): SheetTable {
  const rows = sheetRows(sheet);
  const header = rows.shift();
  if (!header) return { headerRow: null, missingColumns: null, optionalColumns: [], rows: [] };
  const positions = columnPositions(header, columns);
  if (typeof positions === 'string') {
    return { headerRow: header.number, missingColumns: positions, optionalColumns: [], rows: [] };
  }
  const named = new Set(positions.values());
  const optionalPositions: number[] = [];
  const optionalColumns: string[] = [];
  header.cells.forEach((cell, index) => {
    const name = cell === null || cell instanceof Error ? '' : String(cell).trim();
    if (optional && !named.has(index) && optional.test(name)) {
      optionalPositions.push(index);
      optionalColumns.push(name);
    }
  });
  const read = [...columns.map((column) => positions.get(column)!), ...optionalPositions];
  return {
    headerRow: header.number,
    missingColumns: null,
    optionalColumns,
    rows: rows.map(({ number, cells }) => ({ number, cells: read.map((index) => cells[index] ?? null) })),
  };
}
