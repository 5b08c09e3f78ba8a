import { dispositionFileName } from './download';

describe('dispositionFileName', () => {
  test.each([
    [
      `attachment; filename="invoice-15-24.11.2026.pdf"; filename*=UTF-8''%D0%A1%D1%87%D1%91%D1%82%20%E2%84%9615.pdf`,
      'Счёт №15.pdf',
    ],
    [`attachment; filename*=utf-8''price%20list.xlsx; filename="price.xlsx"`, 'price list.xlsx'],
    ['attachment; filename="a \\"quoted\\" name.csv"', 'a "quoted" name.csv'],
    ['attachment; filename=plain.pdf', 'plain.pdf'],
    // A broken escape falls back to the plain name the header offers too.
    [`attachment; filename="fallback.pdf"; filename*=UTF-8''%E0%A4%A.pdf`, 'fallback.pdf'],
    ['attachment', null],
    // An empty name is no name: the caller's fallback serves.
    ['inline; filename=""', null],
    [null, null],
  ])('%s → %s', (header, name) => expect(dispositionFileName(header)).toBe(name));
});
