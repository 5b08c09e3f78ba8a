import type { IssuedInvoice, InvoicesRepository } from '../repositories/invoices';
import { renderInvoicePdf } from '../invoices/invoicePdf';

/** The invoice's PDF: the one kept, or drawn now (the first time it is needed) and kept. */
export async function keptInvoicePdf(
  invoices: InvoicesRepository,
  orderId: number,
  issued: IssuedInvoice,
): Promise<Buffer> {
  if (issued.pdf) return issued.pdf;
  const pdf = await renderInvoicePdf(await invoices.document(orderId, issued));
  await invoices.keepPdf(orderId, pdf);
  return pdf;
}
