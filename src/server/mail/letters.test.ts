import { passwordResetMail } from './password-reset';
import { trackingUrl } from '../../shared/carriers';
import { statusChanged, type OrderForLetter } from './order-letters';
import type { ShopMail } from './letter';

const shop: ShopMail = {
  shopUrl: 'https://myagkiy-opt.example',
  contactEmail: 'opt@myagkiy-opt.example',
  managerEmails: [],
};

describe('the password-reset message', () => {
  it('goes to the account, with the link on the shop, HTML-escaped, and the plain text', () => {
    const mail = passwordResetMail(shop, { email: 'anna@example.com', link: '/reset-password?token=a&b=<c>' });
    expect(mail.to).toBe('anna@example.com');
    expect(mail.subject).toBe('Восстановление пароля — Мягкий Опт');
    expect(mail.html).toMatch(
      /<a href="https:\/\/myagkiy-opt\.example\/reset-password\?token=a&amp;b=%3Cc%3E" style="[^"]*">Задать новый пароль<\/a>/,
    );
    expect(mail.text).toContain('Задать новый пароль: https://myagkiy-opt.example/reset-password?token=a&b=%3Cc%3E');
    expect(mail.text).toContain('Для учётной записи anna@example.com запрошена смена пароля.');
    expect(mail.text).toContain('Вопросы: opt@myagkiy-opt.example');
  });
});

const order = (lines: number): OrderForLetter => ({
  id: 7,
  createdAt: new Date('2026-11-24T12:04:00Z'),
  totalPrice: String(1250.5 * 3 * lines),
  buyerEmail: 'anna@example.com',
  contactName: 'Анна',
  contactPhone: null,
  address: 'г. Тверь',
  companyName: null,
  companyInn: null,
  companyKpp: null,
  lines: Array.from({ length: lines }, (_, index) => ({
    art: `MSH-${index + 1}`,
    name: `Мишка «Тедди» № ${index + 1}`,
    color: 'бурый',
    size: 30,
    price: '1250.50',
    quantity: 3,
  })),
});

/** The text part with Intl's no-break spaces as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('the status message', () => {
  it.each([
    ['Отправлен', 'Заказ передан в доставку.'],
    ['Доставлен', 'Заказ доставлен. Спасибо, что выбрали нас!'],
  ] as const)('«%s» says what it means', (status, news) => {
    const mail = statusChanged(shop, order(1), { status });
    expect(mail.subject).toBe(`Заказ № 7: ${status} — Мягкий Опт`);
    expect(mail.text).toContain(`Здравствуйте, Анна! Статус вашего заказа № 7 — «${status}». ${news}`);
    expect(mail.html).toContain('<a href="https://myagkiy-opt.example/profile/orders/7" style=');
    expect(mail.text).toContain('Открыть заказ № 7: https://myagkiy-opt.example/profile/orders/7');
  });

  it('lists the order: its lines, the total, the spreadsheet attached, and whom to write to', () => {
    const mail = statusChanged(shop, order(2), { status: 'Оплачен' });
    const text = plain(mail.text);
    expect(text).toContain(
      '1. Артикул: MSH-1, Название: Мишка «Тедди» № 1, Цвет: бурый, Размер: 30 см, Цена: 1 250,50 ₽, Количество: 3, Сумма: 3 751,50 ₽',
    );
    expect(text).toContain('2. Артикул: MSH-2,');
    expect(text).toContain('Итого: 7 503,00 ₽');
    expect(text).toContain('Все позиции заказа — в приложенном файле Excel.');
    expect(text).toContain('Вопросы по заказу — пишите на opt@myagkiy-opt.example, указав «Заказ № 7» в теме.');
    expect(text).not.toContain('и ещё');
    const html = plain(mail.html);
    expect(html).toContain('<strong>Мишка «Тедди» № 1</strong>');
    expect(html).toContain('3 × 1 250,50 ₽');
    expect(html).toContain('<strong>7 503,00 ₽</strong>');
    expect(html).toContain(
      'href="mailto:opt@myagkiy-opt.example?subject=%D0%97%D0%B0%D0%BA%D0%B0%D0%B7%20%E2%84%96%207"',
    );
  });

  it('lists the first 30 lines of a big order, then «и ещё N позиций» with the link, and stays far from clipping', () => {
    const mail = statusChanged(shop, order(45), { status: 'Оплачен' });
    const text = plain(mail.text);
    expect(text).toContain('30. Артикул: MSH-30,');
    expect(text).not.toContain('MSH-31,');
    expect(text).toContain('…и ещё 15 позиций: https://myagkiy-opt.example/profile/orders/7');
    expect(mail.html).toContain('>и ещё 15 позиций</a>');
    expect(mail.html).not.toContain('MSH-31 ');
    expect(plain(mail.html)).toContain(`<strong>${plain('168 817,50 ₽')}</strong>`);
    // Gmail clips an HTML part past 102 KB; the longest names of 30 lines stay far below.
    expect(Buffer.byteLength(mail.html)).toBeLessThan(40_000);
    expect(statusChanged(shop, order(32), { status: 'Оплачен' }).text).toContain('и ещё 2 позиции');
    expect(statusChanged(shop, order(31), { status: 'Оплачен' }).text).toContain('и ещё 1 позиция');
  });

  it('says the carrier and the tracking number, linked to the carrier’s page, and the manager’s comment', () => {
    const mail = statusChanged(shop, order(1), {
      status: 'Отправлен',
      comment: 'Отгрузили двумя местами.\nВторое <место> — завтра.',
      tracking: { carrier: 'СДЭК', number: '1234 567', url: 'https://www.cdek.ru/ru/tracking?order_id=1234%20567' },
    });
    expect(mail.text).toContain(
      'Перевозчик: СДЭК\nТрек-номер: 1234 567 (https://www.cdek.ru/ru/tracking?order_id=1234%20567)',
    );
    expect(mail.text).toContain('Комментарий менеджера:\nОтгрузили двумя местами.\nВторое <место> — завтра.');
    expect(mail.html).toContain('href="https://www.cdek.ru/ru/tracking?order_id=1234%20567"');
    expect(mail.html).toContain('>1234 567</a>');
    expect(mail.html).toContain('Отгрузили двумя местами.<br>Второе &lt;место&gt; — завтра.');
  });

  it('gives the number without a link when the carrier has no tracking page', () => {
    const mail = statusChanged(shop, order(1), {
      status: 'Отправлен',
      tracking: { carrier: 'КИТ', number: 'KT-1', url: null },
    });
    expect(mail.text).toContain('Перевозчик: КИТ\nТрек-номер: KT-1\n');
    expect(mail.html).not.toContain('Отследить посылку');
  });

  it('wears the shop’s colours, fits a phone and follows the dark mode', () => {
    const { html } = statusChanged(shop, order(1), { status: 'Оплачен' });
    expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('max-width:600px');
    expect(html).toContain('background:#c0325a');
    // No fixed width beyond a phone's: every table is 100 % or sized by its content.
    expect(html).not.toMatch(/width="(?!100%)\d+/);
    expect(html).not.toMatch(/[^-]width:\s*[4-9]\d\dpx/);
  });
});

describe('carriers', () => {
  it('link to their tracking pages, the number URL-encoded; one without a page gives none', () => {
    expect(trackingUrl('СДЭК', '10 20')).toBe('https://www.cdek.ru/ru/tracking?order_id=10%2020');
    expect(trackingUrl('Почта России', 'RA123456789RU')).toBe('https://www.pochta.ru/tracking?barcode=RA123456789RU');
    expect(trackingUrl('Деловые Линии', '21-1')).toBe('https://www.dellin.ru/tracker/orders/21-1/');
    expect(trackingUrl('КИТ', '1')).toBeNull();
    expect(trackingUrl('Неизвестный', '1')).toBeNull();
  });
});
