// The invoice a manager issues for an order, «Счёт на оплату», drawn as a PDF in the form Russian
// accountants expect: the bank-details box, supplier and buyer, the goods table, totals, VAT,
// the sum in words and the payment term. The text is real text in an embedded DejaVu font, so
// Cyrillic can be copied, searched and read back (docs/decisions.md, «The invoice document»).
import PDFDocument from 'pdfkit';
import { decimalToKopecks, formatKopecks } from '../../shared/money';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import { formatMoscowDate, formatMoscowDateNumeric } from '../../shared/dates';
import { pluralForm } from '../../shared/plurals';
import { amountInWords } from './amountInWords';

export interface InvoiceLine {
  art: string;
  name: string;
  color: string;
  size: string | number;
  /** The unit price as numeric(12,2) gives it ("1500.00"). */
  price: string;
  quantity: number;
}

export interface InvoiceBuyer {
  company_name: string | null;
  company_inn: string | null;
  company_kpp: string | null;
  contact_name: string | null;
  address: string;
}

export interface Invoice {
  number: number;
  date: Date;
  supplier: SupplierRequisites;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
}

const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'),
};

/** «Счёт на оплату № 12 от 24 ноября 2026 г.» */
export function invoiceTitle(invoice: Pick<Invoice, 'number' | 'date'>): string {
  return `Счёт на оплату № ${invoice.number} от ${formatMoscowDate(invoice.date)}`;
}

/** The file's name: «Счёт №12 от 24.11.2026.pdf», and the same in ASCII for clients that want it. */
export function invoiceFileNames(invoice: Pick<Invoice, 'number' | 'date'>): { name: string; ascii: string } {
  const date = formatMoscowDateNumeric(invoice.date);
  return { name: `Счёт №${invoice.number} от ${date}.pdf`, ascii: `invoice-${invoice.number}-${date}.pdf` };
}

/** The VAT inside a total at a rate (prices include it): total · rate / (100 + rate), to the kopeck. */
export function vatIncluded(totalKopecks: number, rate: number): number {
  return Math.round((totalKopecks * rate) / (100 + rate));
}

const PAGE = { size: 'A4', margin: 40, width: 595.28, height: 841.89 } as const;
const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 14; // room for the page number
const CELL_PADDING = 3;
const FONT_SIZE = { small: 7.5, text: 9, title: 14 };

/** The goods table's columns, left to right, their widths summing to the page's. */
const COLUMNS = [
  { title: '№', width: 26, align: 'center' },
  { title: 'Товар', width: 225, align: 'left' },
  { title: 'Кол-во', width: 50, align: 'right' },
  { title: 'Ед.', width: 34, align: 'center' },
  // Wide enough for «1 234 567,89 ₽» on one line.
  { title: 'Цена', width: 90, align: 'right' },
  { title: 'Сумма', width: WIDTH - 26 - 225 - 50 - 34 - 90, align: 'right' },
] as const;

type Doc = PDFKit.PDFDocument;

const cellWidth = (index: number) => COLUMNS[index]!.width - 2 * CELL_PADDING;

function rowHeight(doc: Doc, cells: readonly string[], font: 'regular' | 'bold'): number {
  doc.font(font).fontSize(FONT_SIZE.text);
  return (
    Math.max(...cells.map((text, index) => doc.heightOfString(text, { width: cellWidth(index) }))) + 2 * CELL_PADDING
  );
}

/** Cells of one row: text in each column, wrapped to its width; returns the row's bottom. */
function drawRow(doc: Doc, top: number, cells: readonly string[], font: 'regular' | 'bold', height: number): number {
  doc.font(font);
  let x = LEFT;
  cells.forEach((text, index) => {
    const { width, align } = COLUMNS[index]!;
    doc.rect(x, top, width, height).stroke();
    doc.text(text, x + CELL_PADDING, top + CELL_PADDING, { width: cellWidth(index), align });
    x += width;
  });
  return top + height;
}

/** The box a payer copies into the payment order: bank, БИК, accounts, ИНН/КПП and recipient. */
function drawBankDetails(doc: Doc, supplier: SupplierRequisites, top: number): number {
  const labelWidth = 45;
  const valueWidth = 150;
  const nameWidth = WIDTH - labelWidth - valueWidth;
  // A cell holds its name wrapped to the width and, under it, the small caption.
  const namedCellHeight = (name: string) =>
    Math.max(
      36,
      doc
        .font('regular')
        .fontSize(FONT_SIZE.text)
        .heightOfString(name, { width: nameWidth - 2 * CELL_PADDING }) + 18,
    );
  const bankHeight = namedCellHeight(supplier.bank_name);
  const innHeight = 16;
  const recipientHeight = namedCellHeight(supplier.name);
  const bottom = top + bankHeight + innHeight + recipientHeight;
  const labelX = LEFT + nameWidth;
  const valueX = labelX + labelWidth;

  doc
    .lineWidth(0.6)
    .rect(LEFT, top, WIDTH, bottom - top)
    .stroke();
  doc.moveTo(labelX, top).lineTo(labelX, bottom).stroke();
  doc.moveTo(valueX, top).lineTo(valueX, bottom).stroke();
  doc
    .moveTo(LEFT, top + bankHeight)
    .lineTo(valueX + valueWidth, top + bankHeight)
    .stroke();
  doc
    .moveTo(labelX, top + bankHeight / 2)
    .lineTo(valueX, top + bankHeight / 2)
    .stroke();
  doc
    .moveTo(LEFT, top + bankHeight + innHeight)
    .lineTo(labelX, top + bankHeight + innHeight)
    .stroke();
  doc
    .moveTo(LEFT + nameWidth / 2, top + bankHeight)
    .lineTo(LEFT + nameWidth / 2, top + bankHeight + innHeight)
    .stroke();

  const text = (value: string, x: number, y: number, width: number, size = FONT_SIZE.text) =>
    doc
      .font('regular')
      .fontSize(size)
      .text(value, x + CELL_PADDING, y + CELL_PADDING, { width: width - 2 * CELL_PADDING });

  text(supplier.bank_name, LEFT, top, nameWidth);
  text('Банк получателя', LEFT, top + bankHeight - 13, nameWidth, FONT_SIZE.small);
  text('БИК', labelX, top, labelWidth);
  text(supplier.bik, valueX, top, valueWidth);
  text('Сч. №', labelX, top + bankHeight / 2, labelWidth);
  text(supplier.corr_account, valueX, top + bankHeight / 2, valueWidth);
  text(`ИНН ${supplier.inn}`, LEFT, top + bankHeight, nameWidth / 2);
  text(supplier.kpp ? `КПП ${supplier.kpp}` : 'КПП —', LEFT + nameWidth / 2, top + bankHeight, nameWidth / 2);
  text('Сч. №', labelX, top + bankHeight, labelWidth);
  text(supplier.account, valueX, top + bankHeight, valueWidth);
  text(supplier.name, LEFT, top + bankHeight + innHeight, nameWidth);
  text('Получатель', LEFT, bottom - 13, nameWidth, FONT_SIZE.small);
  return bottom;
}

/** «Поставщик» and «Покупатель»: a bold label, then the party's details wrapped beside it. */
function drawParty(doc: Doc, label: string, details: string, top: number): number {
  const labelWidth = 70;
  doc.font('regular').fontSize(FONT_SIZE.text).text(label, LEFT, top, { width: labelWidth });
  doc.font('bold').text(details, LEFT + labelWidth, top, { width: WIDTH - labelWidth });
  return doc.y + 6;
}

const joinGiven = (...parts: (string | null | false)[]) => parts.filter(Boolean).join(', ');

function supplierLine(supplier: SupplierRequisites): string {
  const registration = supplier.ogrn.length === 13 ? 'ОГРН' : 'ОГРНИП';
  return joinGiven(
    supplier.name,
    `ИНН ${supplier.inn}`,
    supplier.kpp && `КПП ${supplier.kpp}`,
    `${registration} ${supplier.ogrn}`,
    supplier.address,
  );
}

function buyerLine(buyer: InvoiceBuyer): string {
  return joinGiven(
    buyer.company_name ?? buyer.contact_name,
    buyer.company_inn && `ИНН ${buyer.company_inn}`,
    buyer.company_kpp && `КПП ${buyer.company_kpp}`,
    buyer.address,
  );
}

const lineDescription = (line: InvoiceLine) =>
  `${line.name}, арт. ${line.art}, цвет: ${line.color}, ${line.size}\u00a0см`;

const TOTALS_GAP = 4;
const TOTAL_ROW_HEIGHT = 14;
const totalsHeight = (rows: number) => TOTALS_GAP + rows * TOTAL_ROW_HEIGHT;

/**
 * The goods table; a page that fills up continues on the next one under the same header. The
 * last line goes where `roomAfter` (the totals) fits under it, so they never stand on a page of
 * their own.
 */
function drawLines(doc: Doc, lines: InvoiceLine[], top: number, roomAfter: number): number {
  const header = COLUMNS.map((column) => column.title);
  const headerHeight = rowHeight(doc, header, 'bold');
  let y = drawRow(doc, top, header, 'bold', headerHeight);
  lines.forEach((line, index) => {
    const kopecks = decimalToKopecks(line.price);
    const cells = [
      String(index + 1),
      lineDescription(line),
      String(line.quantity),
      'шт.',
      formatKopecks(kopecks),
      formatKopecks(kopecks * line.quantity),
    ];
    const below = index === lines.length - 1 ? roomAfter : 0;
    const height = rowHeight(doc, cells, 'regular');
    if (y + height + below > BOTTOM) {
      doc.addPage();
      y = drawRow(doc, PAGE.margin, header, 'bold', headerHeight);
    }
    y = drawRow(doc, y, cells, 'regular', height);
  });
  return y;
}

/** Right-aligned «label: amount» lines under the table (drawLines left room for them). */
function drawTotals(doc: Doc, rows: [string, string][], top: number): number {
  const amountWidth = COLUMNS.at(-1)!.width;
  const labelWidth = 260;
  let y = top + TOTALS_GAP;
  for (const [label, amount] of rows) {
    doc.font('bold').fontSize(FONT_SIZE.text);
    doc.text(label, LEFT + WIDTH - amountWidth - labelWidth, y, { width: labelWidth, align: 'right' });
    doc.text(amount, LEFT + WIDTH - amountWidth, y, { width: amountWidth - CELL_PADDING, align: 'right' });
    y += TOTAL_ROW_HEIGHT;
  }
  return y;
}

/** Words after the totals; a new page when they would not fit. */
function drawParagraph(doc: Doc, text: string, top: number, font: 'regular' | 'bold'): number {
  doc.font(font).fontSize(FONT_SIZE.text);
  const y = top + doc.heightOfString(text, { width: WIDTH }) > BOTTOM ? PAGE.margin : top;
  if (y !== top) doc.addPage();
  doc.text(text, LEFT, y, { width: WIDTH });
  return doc.y + 3;
}

function drawPageNumbers(doc: Doc, title: string): void {
  const { start, count } = doc.bufferedPageRange();
  if (count < 2) return;
  for (let page = start; page < start + count; page += 1) {
    doc.switchToPage(page);
    // Text below the bottom margin would make pdfkit start a new page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(FONT_SIZE.small)
      .text(`${title} — страница ${page + 1} из ${count}`, LEFT, PAGE.height - PAGE.margin, {
        width: WIDTH,
        align: 'right',
        lineBreak: false,
      });
  }
}

export function renderInvoicePdf(invoice: Invoice): Promise<Buffer> {
  const { supplier, buyer, lines } = invoice;
  const title = invoiceTitle(invoice);
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    font: FONTS.regular,
    bufferPages: true,
    lang: 'ru-RU',
    info: { Title: title, Author: supplier.name },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let y = drawBankDetails(doc, supplier, PAGE.margin);
  doc
    .font('bold')
    .fontSize(FONT_SIZE.title)
    .text(title, LEFT, y + 18, { width: WIDTH });
  y = doc.y + 4;
  doc
    .lineWidth(1.5)
    .moveTo(LEFT, y)
    .lineTo(LEFT + WIDTH, y)
    .stroke()
    .lineWidth(0.6);
  y = drawParty(doc, 'Поставщик:', supplierLine(supplier), y + 10);
  y = drawParty(doc, 'Покупатель:', buyerLine(buyer), y + 4);

  const totalKopecks = lines.reduce((sum, line) => sum + decimalToKopecks(line.price) * line.quantity, 0);
  const total = formatKopecks(totalKopecks);
  const vatRow: [string, string] =
    supplier.vat_rate === null
      ? ['Без НДС', '—']
      : [`В том числе НДС ${supplier.vat_rate}%:`, formatKopecks(vatIncluded(totalKopecks, supplier.vat_rate))];
  const totals: [string, string][] = [['Итого:', total], vatRow, ['Всего к оплате:', total]];
  y = drawLines(doc, lines, y + 6, totalsHeight(totals.length));
  y = drawTotals(doc, totals, y);

  y = drawParagraph(doc, `Всего наименований ${lines.length}, на сумму ${total}`, y + 6, 'regular');
  y = drawParagraph(doc, amountInWords(totalKopecks), y, 'bold');
  const days = supplier.payment_days;
  y = drawParagraph(
    doc,
    `Оплатить в течение ${days} ${pluralForm(days, { one: 'дня', few: 'дней', many: 'дней' })} с даты счёта.`,
    y + 8,
    'regular',
  );
  doc
    .lineWidth(1.5)
    .moveTo(LEFT, y + 4)
    .lineTo(LEFT + WIDTH, y + 4)
    .stroke();
  drawParagraph(
    doc,
    'Руководитель ______________________            Бухгалтер ______________________',
    y + 28,
    'regular',
  );

  drawPageNumbers(doc, title);
  doc.end();
  return done;
}
