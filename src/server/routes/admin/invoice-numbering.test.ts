/**
 * Invoice numbers under parallel issues. On PostgreSQL (TEST_DATABASE_URL) the requests run at
 * once on separate connections and queue on the year's counter row; on PGlite they interleave on
 * one connection. Either way a year's numbers are 1, 2, 3 … with no gap and no repeat, and an
 * issue that fails after taking its number gives it back.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { InvoiceRef, Product } from '../../../shared/api';
import { invoiceCounters, invoices, orders } from '../../db/schema';
import {
  allProducts,
  json,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { openBackOffice } from '../../../../test/server/helpers/back-office';
import { SUPPLIER } from '../../../../test/server/helpers/invoices';

const ISSUED = 20;
const DOOMED = 6;

let shop: TestApp;
let manager: Shopper;
let orderIds: number[];

beforeAll(async () => {
  ({ shop, manager } = await openBackOffice());
  const shoppers = await quickShoppers(shop.app, ISSUED + DOOMED);
  await shop.app.repositories.supplierRequisites.save(SUPPLIER, manager.id);
  const product: Product = (await allProducts(shop.app)).find((candidate) => candidate.variants.length > 0)!;
  const variant = product.variants[0]!;
  await setVariant(shop.app, variant.id, { stock: 1000 });
  orderIds = [];
  for (const shopper of shoppers) {
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: shopper.headers,
      payload: {
        user_id: shopper.id,
        address: 'г. Казань, ул. Баумана, д. 1',
        items: [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
      },
    });
    orderIds.push(json<{ id: number }>(placed).id);
  }
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

it(`runs against ${usesPostgres ? 'PostgreSQL (truly parallel)' : 'PGlite (interleaved)'}`, () => {
  expect(shop.app.database.kind).toBe(usesPostgres ? 'postgres' : 'pglite');
});

it(`${ISSUED} invoices at once, ${DOOMED} more failing after taking a number among them: numbers 1…${ISSUED} exactly`, async () => {
  const doomed = orderIds.filter((_id, index) => index % 4 === 1).slice(0, DOOMED);
  const { db } = shop.app.database;
  // Refused at the invoice's own row, after the counter moved: the whole transaction rolls back.
  await db.execute(
    sql.raw(`
      create function refuse_test_invoice() returns trigger language plpgsql as $$
      begin
        if new.order_id in (${doomed.join(', ')}) then raise exception 'forced failure'; end if;
        return new;
      end $$`),
  );
  await db.execute(
    sql.raw(`create trigger refuse_test_invoice before insert on invoices
               for each row execute function refuse_test_invoice()`),
  );

  const answers = await Promise.all(
    orderIds.map((id) =>
      shop.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${id}/invoice`, headers: manager.headers }),
    ),
  );

  const byOrder = new Map(orderIds.map((id, index) => [id, answers[index]!]));
  for (const [id, answer] of byOrder) {
    expect([id, answer.statusCode]).toEqual([id, doomed.includes(id) ? 500 : 201]);
  }
  const numbers = answers
    .filter((answer) => answer.statusCode === 201)
    .map((answer) => json<InvoiceRef>(answer).number)
    .sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: ISSUED }, (_unused, index) => index + 1));

  const stored = await db
    .select({ orderId: invoices.orderId, number: invoices.number })
    .from(invoices)
    .orderBy(asc(invoices.number));
  expect(stored.map((row) => row.number)).toEqual(numbers);
  expect(stored.map((row) => row.orderId).some((id) => doomed.includes(id))).toBe(false);
  expect(await db.select({ lastNumber: invoiceCounters.lastNumber }).from(invoiceCounters)).toEqual([
    { lastNumber: ISSUED },
  ]);
  const statuses = await db.select({ status: orders.status }).from(orders).where(inArray(orders.id, doomed));
  expect(statuses.map((row) => row.status)).toEqual(doomed.map(() => 'Создан'));

  // Once the failure is gone, the next invoice takes the next number.
  await db.execute(sql.raw('drop trigger refuse_test_invoice on invoices'));
  const next = await shop.app.inject({
    method: 'POST',
    url: `/api/v1/admin/orders/${doomed[0]}/invoice`,
    headers: manager.headers,
  });
  expect(json<InvoiceRef>(next).number).toBe(ISSUED + 1);
  const [row] = await db.select().from(orders).where(eq(orders.id, doomed[0]!));
  expect(row!.status).toBe('Ожидает оплаты');
});
