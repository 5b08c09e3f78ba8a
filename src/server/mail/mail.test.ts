/**
 * The shop's e-mail, end to end: events queue messages in the outbox, the sender delivers them to a
 * real SMTP server started here (smtp-server, parsed back with mailparser), or writes them as .eml
 * files without SMTP_URL. On PGlite or, with TEST_DATABASE_URL, PostgreSQL.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Product } from '../../shared/api';
import { mailOutbox } from '../db/schema';
import { newManager } from '../../../test/server/helpers/back-office';
import { pdfText, SUPPLIER } from '../../../test/server/helpers/invoices';
import { advanceOrder, orderLine, placeOrderOf, type OrderLine } from '../../../test/server/helpers/order-workflow';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../../../test/server/helpers/smtp';
import {
  allProducts,
  createTestApp,
  LogCapture,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../test/server/helpers/test-app';

jest.setTimeout(30_000);

const PUBLIC_URL = 'https://myagkiy-opt.example';
const BOSS = 'boss@myagkiy-opt.example';

let smtp: TestSmtp;
let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
let spare: Product[];
const log = new LogCapture();

beforeAll(async () => {
  smtp = await startTestSmtp();
  shop = await createTestApp(
    {
      publicUrl: PUBLIC_URL,
      logLevel: 'info',
      mail: { smtpUrl: smtp.url, managerEmails: [BOSS], pollMs: 200, retrySeconds: 1, leaseSeconds: 10 },
    },
    { logStream: log },
  );
  [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  manager = await newManager(shop.app);
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop?.close();
  await smtp?.stop();
});
beforeEach(() => {
  smtp.mode = { answer: 'accept' };
});

/** Waits for the message to `to` whose subject contains `subject`. */
async function arrived(to: string, subject: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Intl separates thousands with a no-break space.
    const found = smtp.received.find(
      (mail) => mail.to.includes(to) && mail.parsed.subject?.replace(/\s/g, ' ').includes(subject),
    );
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(
        `no «${subject}» to ${to}; arrived: ${smtp.received.map((mail) => mail.parsed.subject).join(' | ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The letter's one XLSX attachment, read back: each row's values (empty cells null, trailing ones dropped). */
async function sheetRows(parsed: ParsedMail): Promise<unknown[][]> {
  const sheets = parsed.attachments.filter((attachment) => attachment.filename?.endsWith('.xlsx'));
  expect(sheets).toHaveLength(1);
  expect(sheets[0]!.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(sheets[0]!.filename).toMatch(/^Заказ \d+\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(sheets[0]!.content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => {
    // row.values is sparse (empty cells are holes), and starts at index 1.
    rows.push(Array.from((row.values as unknown[]).slice(1), (value) => value ?? null));
  });
  return rows;
}

const COMPANY = {
  company_name: 'ООО «Ромашка»',
  company_inn: '7736050003',
  company_kpp: '773601001',
  contact_name: 'Анна Смирнова',
  contact_phone: '+7 900 123-45-67',
};

function order(fields: object = COMPANY, quantity = 3) {
  return placeOrderOf(shop.app, buyer, spare.shift()!, { quantity, stock: 50, price: '1250.50', fields });
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** Waits until the outbox's rows about the order are `ready`. */
async function waitForRows(orderId: number, ready: (rows: OutboxRow[]) => boolean): Promise<OutboxRow[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await shop.app.database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `%№ ${orderId} %`));
    if (rows.length > 0 && ready(rows)) return rows;
    if (Date.now() > deadline)
      throw new Error(`outbox rows of order ${orderId} not as expected: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an order placed', () => {
  it('reaches the buyer: number, lines, total, requisites, what happens next, a link back; HTML and text', async () => {
    const product = spare[0]!;
    const { order: placed, variant } = await order();
    const { parsed } = await arrived(buyer.email, `Заказ № ${placed.id} принят`);
    expect(parsed.from?.text).toBe('"Мягкий Опт" <noreply@myagkiy-opt.example>');
    expect(parsed.subject).toBe(`Заказ № ${placed.id} принят — Мягкий Опт`);
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@myagkiy-opt\.example>$/);
    const text = parsed.text!.replace(/\s+/g, ' ');
    expect(text).toContain(
      `1. Артикул: ${product.art}, Название: ${product.name}, Цвет: ${variant.color}, Размер: ${variant.size} см, Цена: 1 250,50 ₽, Количество: 3, Сумма: 3 751,50 ₽`,
    );
    expect(text).toContain('Итого: 3 751,50 ₽');
    // Money as the shop writes it everywhere (src/shared/money.ts): non-breaking spaces, kopecks.
    expect(parsed.text).toContain('3\u00a0751,50\u00a0₽');
    for (const line of [
      'Организация: ООО «Ромашка»',
      'ИНН: 7736050003',
      'КПП: 773601001',
      'Контактное лицо: Анна Смирнова',
      'Телефон: +7 900 123-45-67',
      'Адрес доставки: г. Тверь, ул. Советская, д. 3',
      'Здравствуйте, Анна Смирнова!',
      'Что дальше: менеджер проверит заказ и выставит счёт на оплату',
      `Открыть заказ № ${placed.id}: ${PUBLIC_URL}/profile/orders/${placed.id}`,
      `Вопросы по заказу — пишите на opt@myagkiy-opt.example, указав «Заказ № ${placed.id}» в теме.`,
      'Все позиции заказа — в приложенном файле Excel.',
    ]) {
      expect(text).toContain(line);
    }
    const html = (parsed.html as string).replace(/\s/g, ' ');
    expect(html).toContain(`<a href="${PUBLIC_URL}/profile/orders/${placed.id}" style=`);
    expect(html).toContain('3 × 1 250,50 ₽');
    expect(html).toContain('ООО «Ромашка»');
    const sheet = await sheetRows(parsed);
    expect(sheet[0]).toEqual([expect.stringMatching(new RegExp(`^Заказ № ${placed.id} от `))]);
    expect(sheet).toContainEqual([product.art, product.name, variant.color, variant.size, 1250.5, 3, 3751.5]);
  });

  it('reaches every manager, MANAGER_EMAILS and the accounts with the manager role, each in a message of their own', async () => {
    const { order: placed } = await order();
    const subject = `Новый заказ № ${placed.id} на 3 751,50 ₽`;
    const [toBoss, toManager] = [await arrived(BOSS, subject), await arrived(manager.email, subject)];
    expect(toBoss.to).toEqual([BOSS]);
    expect(toManager.to).toEqual([manager.email]);
    expect(toBoss.parsed.messageId).not.toBe(toManager.parsed.messageId);
    const text = toManager.parsed.text!.replace(/[^\S\n]/g, ' ');
    expect(text).toContain(`Покупатель: ${buyer.email}`);
    expect(text).toContain('Итого: 3 751,50 ₽');
    expect(text).toContain('ИНН: 7736050003');
    expect(text).toContain(`${PUBLIC_URL}/admin/orders/${placed.id}`);
    // Nobody else got it: one buyer's message and one per manager.
    const copies = smtp.received.filter((mail) => mail.parsed.subject?.includes(`№ ${placed.id} `));
    expect(copies.map((mail) => mail.to[0]).sort()).toEqual([BOSS, buyer.email, manager.email].sort());
  });

  it('escapes what the buyer typed in the HTML part, and keeps it as typed in the text part', async () => {
    const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const { order: placed } = await order({ ...COMPANY, contact_name: hostile, company_name: '"><b>ООО</b>' });
    const { parsed } = await arrived(buyer.email, `Заказ № ${placed.id} принят`);
    const html = parsed.html as string;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>ООО');
    expect(html).toContain(
      'Здравствуйте, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;!',
    );
    expect(parsed.text).toContain(`Здравствуйте, ${hostile}!`);
  });

  it('is not queued when the order is refused: nothing goes out for an event that did not happen', async () => {
    const before = await shop.app.database.db.$count(mailOutbox);
    const product = spare.shift()!;
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    const refused = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer.headers,
      payload: {
        user_id: buyer.id,
        address: 'г. Тверь',
        items: [{ product_id: product.id, variant_id: variant.id, quantity: variant.stock + 1 }],
      },
    });
    expect(refused.statusCode).toBe(409);
    expect(await shop.app.database.db.$count(mailOutbox)).toBe(before);
  });
});

describe('an invoice issued', () => {
  it('reaches the buyer with the invoice PDF attached, and no separate status message', async () => {
    const saved = await shop.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/settings/requisites',
      headers: manager.headers,
      payload: SUPPLIER,
    });
    expect(saved.statusCode).toBe(200);
    const { order: placed } = await order();
    const issued = await shop.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${placed.id}/invoice`,
      headers: manager.headers,
    });
    expect(issued.statusCode).toBe(201);
    const { number } = issued.json() as { number: number };
    const { parsed } = await arrived(buyer.email, `Счёт на оплату № ${number} от`);
    expect(parsed.subject).toContain(`по заказу № ${placed.id}`);
    expect(parsed.text).toContain('Оплатите его в течение 5 дней с даты счёта.');
    expect(parsed.attachments).toHaveLength(1);
    const [pdf] = parsed.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toMatch(new RegExp(`^Счёт №${number} от \\d\\d\\.\\d\\d\\.\\d{4}\\.pdf$`));
    const text = await pdfText(pdf!.content);
    expect(text).toContain(`Счёт на оплату № ${number} от`);
    expect(text).toContain('ООО «Ромашка»');
    // The download gives the same document, the one kept when the message was sent.
    const download = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/order/${placed.id}/invoice`,
      headers: buyer.headers,
    });
    expect(download.rawPayload.equals(pdf!.content)).toBe(true);
    expect(smtp.received.some((mail) => mail.parsed.subject?.includes(`Заказ № ${placed.id}: Ожидает оплаты`))).toBe(
      false,
    );
  });
});

describe('a status changed', () => {
  it('by a manager, and by the buyer cancelling: each reaches the buyer', async () => {
    const { order: paid } = await order();
    await shop.app.services.orders.changeStatus(paid.id, {
      to: 'Ожидает оплаты',
      source: 'invoice',
      byUserId: null,
    });
    const changed = await shop.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${paid.id}/status`,
      headers: manager.headers,
      payload: { status: 'Оплачен', comment: 'внутренняя заметка' },
    });
    expect(changed.statusCode).toBe(200);
    const { parsed } = await arrived(buyer.email, `Заказ № ${paid.id}: Оплачен`);
    expect(parsed.text).toContain(`Статус вашего заказа № ${paid.id} — «Оплачен». Оплата получена, мы собираем заказ.`);
    // The manager's comment reaches the buyer.
    expect(parsed.text).toContain('Комментарий менеджера:\nвнутренняя заметка');

    const { order: cancelled } = await order();
    const cancel = await shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${cancelled.id}`,
      headers: buyer.headers,
    });
    expect(cancel.statusCode).toBe(200);
    const cancelMail = await arrived(buyer.email, `Заказ № ${cancelled.id}: Отменён`);
    expect(cancelMail.parsed.text).toContain('товары вернулись на склад');
  });
});

describe('a status letter', () => {
  it('«Отправлен»: the carrier, the tracking number linked to its page, the comment, the lines and the XLSX', async () => {
    const { order: shipped, variant } = await order();
    await advanceOrder(shop.app, shipped.id, 'Оплачен');
    const changed = await shop.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${shipped.id}/status`,
      headers: manager.headers,
      payload: {
        status: 'Отправлен',
        comment: 'Два места, накладная 77',
        carrier: 'СДЭК',
        tracking_number: '1234567890',
      },
    });
    expect(changed.statusCode).toBe(200);
    const { parsed } = await arrived(buyer.email, `Заказ № ${shipped.id}: Отправлен`);
    const text = parsed.text!.replace(/[^\S\n]/g, ' ');
    expect(text).toContain(
      'Перевозчик: СДЭК\nТрек-номер: 1234567890 (https://www.cdek.ru/ru/tracking?order_id=1234567890)',
    );
    expect(text).toContain('Комментарий менеджера:\nДва места, накладная 77');
    expect(text).toContain(`Цвет: ${variant.color}`);
    expect(text).toContain('Итого: 3 751,50 ₽');
    expect(parsed.html).toContain('<a class="link" href="https://www.cdek.ru/ru/tracking?order_id=1234567890"');
    const sheet = await sheetRows(parsed);
    expect(sheet).toContainEqual(['Статус', 'Отправлен']);
    expect(sheet.at(-1)).toEqual(['Итого', null, null, null, null, 3, 3751.5]);
  });

  it('a big order: the first 30 lines, «и ещё N позиций» with the link, and every line in the XLSX', async () => {
    const items: OrderLine[] = [];
    while (items.length < 34) {
      const product = spare.shift()!;
      for (const variant of product.variants.slice(0, 34 - items.length)) {
        await setVariant(shop.app, variant.id, { stock: 50, price: '100.00' });
        items.push(orderLine(product, variant, 2));
      }
    }
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer.headers,
      payload: { user_id: buyer.id, address: 'г. Тверь', items },
    });
    expect(placed.statusCode).toBe(201);
    const { id } = placed.json() as { id: number };
    await shop.app.services.orders.changeStatus(id, { to: 'Отменён', source: 'manager', byUserId: null });
    const { parsed } = await arrived(buyer.email, `Заказ № ${id}: Отменён`);
    const text = parsed.text!.replace(/[^\S\n]/g, ' ');
    expect(text).toMatch(/\n30\. Артикул: /);
    expect(text).not.toMatch(/\n31\. Артикул: /);
    expect(text).toContain(`…и ещё 4 позиции: ${PUBLIC_URL}/profile/orders/${id}`);
    expect(text).toContain('Итого: 6 800,00 ₽');
    expect(parsed.html).toContain('>и ещё 4 позиции</a>');
    const sheet = await sheetRows(parsed);
    const header = sheet.findIndex((row) => row[0] === 'Артикул');
    expect(sheet.length - header - 2).toBe(34);
    expect(sheet.at(-1)).toEqual(['Итого', null, null, null, null, 68, 6800]);
  });

  it('a carrier or a number with another status, or a number without its carrier, is refused (422); nothing sent', async () => {
    const { order: paid } = await order();
    await advanceOrder(shop.app, paid.id, 'Ожидает оплаты');
    const attempt = (payload: object) =>
      shop.app.inject({
        method: 'POST',
        url: `/api/v1/admin/orders/${paid.id}/status`,
        headers: manager.headers,
        payload,
      });
    const early = await attempt({ status: 'Оплачен', carrier: 'СДЭК', tracking_number: '1' });
    expect(early.statusCode).toBe(422);
    expect(early.json()).toEqual({
      detail: 'Перевозчик и трек-номер указываются только при смене статуса на «Отправлен»',
    });
    expect((await attempt({ status: 'Оплачен', tracking_number: '<script>' })).statusCode).toBe(422);
    expect((await attempt({ status: 'Оплачен', carrier: 'Неизвестный' })).statusCode).toBe(422);
    expect((await attempt({ status: 'Оплачен' })).statusCode).toBe(200);
    const orphan = await attempt({ status: 'Отправлен', tracking_number: '1' });
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json()).toEqual({ detail: 'Укажите перевозчика, которому передан трек-номер' });
  });
});

describe('delivery', () => {
  it('SMTP server down: the messages wait in the outbox, retried with a growing wait, and arrive once it is back', async () => {
    await smtp.stop();
    try {
      const { order: placed } = await order();
      // Tried twice at least (1 s, then 2 s apart), each failure recorded on the row.
      const mine = await waitForRows(placed.id, (rows) => rows.every((row) => row.attempts >= 2));
      expect(mine).toHaveLength(3);
      for (const row of mine) {
        expect(row.sentAt).toBeNull();
        expect(row.failedAt).toBeNull();
        expect(row.lastError).toMatch(/ECONNREFUSED/);
        expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 1000);
      }
      expect(log.text).toMatch(/"msg":"mail not sent, will retry"/);
      await smtp.start();
      await arrived(buyer.email, `Заказ № ${placed.id} принят`);
      await arrived(BOSS, `Новый заказ № ${placed.id}`);
      await arrived(manager.email, `Новый заказ № ${placed.id}`);
    } finally {
      if (!smtp.listening) await smtp.start();
    }
  });

  it('a 4xx answer is tried again; a 5xx refusal is final, kept on the row and logged as an error', async () => {
    smtp.mode = { answer: 'reply', code: 451 };
    const { order: later } = await order();
    await waitForRows(later.id, (rows) => rows.every((row) => row.attempts >= 2));
    smtp.mode = { answer: 'accept' };
    await arrived(buyer.email, `Заказ № ${later.id} принят`);

    smtp.mode = { answer: 'reply', code: 550 };
    const { order: refused } = await order();
    const rows = await waitForRows(refused.id, (candidates) => candidates.every((row) => row.failedAt !== null));
    expect(rows).toHaveLength(3);
    const row = rows[0]!;
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeNull();
    expect(row.lastError).toMatch(/^550 /);
    expect(log.text).toMatch(
      /"level":50[^\n]*"mailId":\d+[^\n]*"msg":"mail refused by the SMTP server for good, not sent"/,
    );
  });
});

describe('without SMTP_URL', () => {
  it(
    'writes each message as an .eml file in the mail directory and logs where',
    async () => {
      const lines = new LogCapture();
      const local = await createTestApp({ logLevel: 'info', mail: { pollMs: 200 } }, { logStream: lines });
      try {
        const [shopper] = (await quickShoppers(local.app, 1)) as [Shopper];
        const product = (await allProducts(local.app)).find((candidate) =>
          candidate.variants.some((v) => v.stock > 0),
        )!;
        const { order: placed } = await placeOrderOf(local.app, shopper, product, {
          quantity: 1,
          stock: 5,
          fields: COMPANY,
        });
        const dir = local.config.mail.dir;
        expect(lines.text).toContain(`no SMTP_URL: messages are written as .eml files to ${dir}`);
        const deadline = Date.now() + 15_000;
        while (!lines.text.includes('"msg":"mail written to ')) {
          if (Date.now() > deadline) throw new Error(`no message written: ${lines.text}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const file = /"msg":"mail written to ([^"]+)"/.exec(lines.text)![1]!;
        expect(path.dirname(file)).toBe(dir);
        expect((await readdir(dir)).filter((name) => name.endsWith('.eml')).length).toBeGreaterThanOrEqual(1);
        const parsed = await simpleParser(await readFile(file));
        expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe(shopper.email);
        expect(parsed.subject).toBe(`Заказ № ${placed.id} принят — Мягкий Опт`);
        expect(parsed.text).toContain('Итого:');
        // Without PUBLIC_URL the links lead to the shop on this machine.
        expect(parsed.text).toContain(`http://localhost:3000/profile/orders/${placed.id}`);
      } finally {
        await local.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});
