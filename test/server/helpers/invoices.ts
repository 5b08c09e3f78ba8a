import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SupplierRequisites } from '../../../src/shared/schemas/settings';

const run = promisify(execFile);

/** An organisation's valid details (Сбербанк's published ИНН, ОГРН, БИК and accounts). */
export const SUPPLIER: SupplierRequisites = {
  name: 'ООО «Мягкий Опт»',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  address: '117997, г. Москва, ул. Вавилова, д. 19',
  bank_name: 'ПАО Сбербанк',
  bik: '044525225',
  account: '40702810638000000000',
  corr_account: '30101810400000000225',
  vat_rate: 22,
  payment_days: 5,
};

/** Runs a poppler tool (Debian's poppler-utils, installed by .ci/run) on a PDF through stdin. */
export async function poppler(
  tool: 'pdftotext' | 'pdfinfo' | 'pdffonts',
  pdf: Buffer,
  ...args: string[]
): Promise<string> {
  const child = run(tool, [...args, '-', ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  child.child.stdin!.end(pdf);
  return (await child).stdout;
}

/** A PDF's text as `pdftotext -layout` lays it out, every run of spaces (Intl's are non-breaking) as one. */
export async function pdfText(pdf: Buffer): Promise<string> {
  return (await poppler('pdftotext', pdf, '-layout')).replace(/[^\S\n\f]+/g, ' ');
}
