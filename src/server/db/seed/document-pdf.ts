import PDFDocument from 'pdfkit';
import { CONFORMITY_DOCUMENT_LABELS } from '../../../shared/product-card';
import { formatCalendarDay } from '../../../shared/dates';
import type { SeedDocument } from './catalogue';

const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');

/**
 * A one-page sample of a demo conformity document, so the demo shop's marketplace kit holds a real
 * PDF (with real Cyrillic text in an embedded font). Marked as a sample: the numbers are made up.
 */
export function renderDemoDocumentPdf(document: SeedDocument): Promise<Buffer> {
  const title = CONFORMITY_DOCUMENT_LABELS[document.kind];
  const doc = new PDFDocument({ size: 'A4', margin: 56, font: FONT, lang: 'ru-RU', info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(18).text(`${title} ЕАЭС`, { align: 'center' });
  doc.moveDown().fontSize(12).text(`№ ${document.number}`, { align: 'center' });
  doc.moveDown(2).fontSize(11);
  doc.text(`Продукция: ${document.covers}.`);
  doc.moveDown().text(`Соответствует требованиям технического регламента ${document.regulation}.`);
  doc
    .moveDown()
    .text(`Срок действия: с ${formatCalendarDay(document.validFrom)} по ${formatCalendarDay(document.validTo)}.`);
  doc.moveDown(3).fillColor('#888').text('Демонстрационный образец магазина «Мягкий Опт»: номер вымышлен.');
  doc.end();
  return done;
}
