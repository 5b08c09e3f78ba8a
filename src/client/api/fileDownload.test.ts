import { contentDispositionFileName } from './fileDownload';

describe('contentDispositionFileName', () => {
  test('prefers the UTF-8 name (RFC 6266) to the plain one', () => {
    const header = `attachment; filename="schet-12.pdf"; filename*=UTF-8''${encodeURIComponent('Счёт № 12.pdf')}`;
    expect(contentDispositionFileName(header, 'x.pdf')).toBe('Счёт № 12.pdf');
  });

  test.each([
    ['attachment; filename="schet-12.pdf"', 'schet-12.pdf'],
    ['attachment; filename=schet-12.pdf', 'schet-12.pdf'],
    // A broken escape in the UTF-8 name: the plain one still serves.
    [`attachment; filename*=UTF-8''%E0%A4%A; filename="schet-12.pdf"`, 'schet-12.pdf'],
  ])('%s → %s', (header, name) => {
    expect(contentDispositionFileName(header, 'x.pdf')).toBe(name);
  });

  test.each([null, 'attachment', 'inline; filename=""'])('%s gives the fallback', (header) => {
    expect(contentDispositionFileName(header, 'schet-15.pdf')).toBe('schet-15.pdf');
  });
});
