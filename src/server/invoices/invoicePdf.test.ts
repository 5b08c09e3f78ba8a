import { poppler, pdfText, SUPPLIER } from '../../../test/server/helpers/invoices';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import { type Invoice, type InvoiceLine, renderInvoicePdf, vatIncluded } from './invoicePdf';

// Drawing a PDF with the embedded font and reading it back with pdftotext takes 0.1–0.3 s alone,
// several seconds on a machine busy with other suites: more than jest's default 5 s.
jest.setTimeout(30_000);

const invoiceText = async (invoice: Invoice) => pdfText(await renderInvoicePdf(invoice));

const SOLE_TRADER: SupplierRequisites = {
  ...SUPPLIER,
  name: 'ИП Иванова Мария Петровна',
  inn: '500100732259',
  kpp: null,
  ogrn: '304500116000157',
  vat_rate: null,
  payment_days: 1,
};

const line = (overrides: Partial<InvoiceLine> = {}): InvoiceLine => ({
  art: 'MSH-25',
  name: 'Мишка',
  color: 'Розовый',
  size: 25,
  price: '749.50',
  quantity: 10,
  ...overrides,
});

const INVOICE: Invoice = {
  number: 7,
  date: new Date('2026-11-24T09:00:00Z'),
  supplier: SUPPLIER,
  buyer: {
    company_name: 'ООО «Ромашка»',
    company_inn: '7736050003',
    company_kpp: '773601001',
    contact_name: 'Иван Петров',
    address: 'г. Казань, ул. Баумана, д. 1',
  },
  lines: [line(), line({ art: 'ZAY-30', name: 'Зайка', color: 'Белый', size: '30', price: '0.29', quantity: 3 })],
};

describe('renderInvoicePdf', () => {
  test('the invoice of an organisation with VAT reads back as text', async () => {
    const text = await invoiceText(INVOICE);

    expect(text).toContain('Счёт на оплату № 7 от 24 ноября 2026 г.');
    // The bank-details box: bank and БИК, then the correspondent account, ИНН/КПП and the account.
    expect(text).toMatch(/ПАО Сбербанк БИК 044525225\n/);
    expect(text).toMatch(/Сч\. № 30101810400000000225\n/);
    expect(text).toMatch(/ИНН 7707083893 КПП 773601001 Сч\. № 40702810638000000000\n/);
    // The parties' details wrap beside their labels.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(
      'Поставщик: ООО «Мягкий Опт», ИНН 7707083893, КПП 773601001, ОГРН 1027700132195, 117997, г. Москва, ул. Вавилова, д. 19 ',
    );
    expect(flat).toContain('Покупатель: ООО «Ромашка», ИНН 7736050003, КПП 773601001, г. Казань, ул. Баумана, д. 1 ');
    expect(text).not.toContain('Иван Петров');

    expect(text).toMatch(/№ Товар Кол-во Ед\. Цена Сумма\n/);
    // Money as everywhere in the shop, the size in centimetres.
    expect(text).toMatch(/1 Мишка, арт\. MSH-25, цвет: Розовый, 25 см 10 шт\. 749,50 ₽ 7 495,00 ₽\n/);
    expect(text).toMatch(/2 Зайка, арт\. ZAY-30, цвет: Белый, 30 см 3 шт\. 0,29 ₽ 0,87 ₽\n/);
    expect(text).not.toContain('размер:');

    expect(text).toContain('Итого: 7 495,87 ₽');
    expect(text).toContain(`В том числе НДС 22%: 1 351,71 ₽`);
    expect(text).toContain('Всего к оплате: 7 495,87 ₽');
    expect(text).toContain('Всего наименований 2, на сумму 7 495,87 ₽');
    expect(text).toContain('Семь тысяч четыреста девяносто пять рублей 87 копеек');
    expect(text).toContain('Оплатить в течение 5 дней с даты счёта.');
  });

  test('an ИП without VAT, a buyer without a company: ОГРНИП, no КПП, «Без НДС», the contact named', async () => {
    const text = await invoiceText({
      ...INVOICE,
      supplier: SOLE_TRADER,
      buyer: {
        company_name: null,
        company_inn: null,
        company_kpp: null,
        contact_name: 'Иван Петров',
        address: 'г. Казань',
      },
      lines: [line({ price: '1500', quantity: 1 })],
    });

    expect(text).toContain('Поставщик: ИП Иванова Мария Петровна, ИНН 500100732259, ОГРНИП 304500116000157');
    expect(text).toMatch(/ИНН 500100732259 КПП — Сч\. № 40702810638000000000\n/);
    expect(text).toContain('Покупатель: Иван Петров, г. Казань\n');
    expect(text).toMatch(/Без НДС —\n/);
    expect(text).not.toContain('В том числе НДС');
    expect(text).toContain('Одна тысяча пятьсот рублей 00 копеек');
    expect(text).toContain('Оплатить в течение 1 дня с даты счёта.');
  });

  test('long names of the bank and the supplier grow their cells above the captions', async () => {
    const bank = 'Публичное акционерное общество «Сбербанк России», Московский банк ПАО Сбербанк, г. Москва';
    const name =
      'Общество с ограниченной ответственностью «Мягкий Опт — оптовая торговля мягкими игрушками и сувенирами»';
    const text = await invoiceText({ ...INVOICE, supplier: { ...SUPPLIER, bank_name: bank, name } });
    const box = text.slice(0, text.indexOf('Счёт на оплату'));

    expect(box).toMatch(/\n ?Банк получателя\n/);
    expect(box).toMatch(/\n ?Получатель\n/);
    const flat = (part: string) =>
      part
        .replace(/Сч\. № \d+|БИК \d+/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    expect(flat(box.slice(0, box.indexOf('Банк получателя')))).toBe(bank);
    expect(flat(box.slice(box.indexOf('КПП 773601001') + 13, box.indexOf('\nПолучатель')))).toBe(name);
  });

  test('the date is the one in Moscow', async () => {
    const text = await invoiceText({ ...INVOICE, date: new Date('2026-11-23T22:30:00Z') });
    expect(text).toContain('Счёт на оплату № 7 от 24 ноября 2026 г.');
  });

  test('the Cyrillic is real text in an embedded font', async () => {
    const fonts = await poppler('pdffonts', await renderInvoicePdf(INVOICE));
    expect(fonts).toMatch(/DejaVuSansCondensed\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/DejaVuSansCondensed-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  test('a long order breaks across pages, each with the table header and its number, the totals under a line', async () => {
    const lines = Array.from({ length: 120 }, (_, index) => line({ art: `A-${index + 1}`, quantity: 1 }));
    const pdf = await renderInvoicePdf({ ...INVOICE, lines });
    const pages = Number(/Pages:\s+(\d+)/.exec(await poppler('pdfinfo', pdf))![1]);
    const text = await pdfText(pdf);

    expect(pages).toBeGreaterThanOrEqual(3);
    const pageTexts = text.split('\f').filter((page) => page.trim());
    expect(pageTexts).toHaveLength(pages);
    pageTexts.forEach((page, index) => {
      expect(page).toMatch(/№ Товар Кол-во Ед\. Цена Сумма\n/);
      expect(page).toContain(`Счёт на оплату № 7 от 24 ноября 2026 г. — страница ${index + 1} из ${pages}`);
    });
    // 120 such lines fill the fourth page to the bottom: the last one moves on with the totals.
    expect(pageTexts.at(-1)).toMatch(/120 Мишка, арт\. A-120[^\n]*\n Итого: 89 940,00 ₽/);
    for (let number = 1; number <= 120; number += 1) {
      expect(text).toMatch(
        new RegExp(`\\n ?${number} Мишка, арт\\. A-${number}, цвет: Розовый, 25 см 1 шт\\. 749,50 ₽ 749,50 ₽\\n`),
      );
    }
    expect(text).toContain('Всего наименований 120, на сумму 89 940,00 ₽');
    expect(text).toContain('Восемьдесят девять тысяч девятьсот сорок рублей 00 копеек');
  });
});

describe('vatIncluded', () => {
  test.each([
    [12_200, 22, 2_200],
    [12_000, 20, 2_000],
    [11_000, 10, 1_000],
    [749_587, 22, 135_171],
    [1, 22, 0],
    [0, 20, 0],
  ])('%d kopecks at %d%% hold %d kopecks of VAT', (total, rate, vat) => expect(vatIncluded(total, rate)).toBe(vat));
});
