// The orders' side of the 1С exchange (type=sale, README «Обмен с 1С»): the document of the orders
// 1С has not confirmed, the confirmation, and what 1С's own orders file says happened to them.
import { isDeepStrictEqual } from 'node:util';
import type { ExchangeRunStats, OneCOrderDocument } from '../../shared/exchange';
import type { OrderStatus } from '../../shared/order-statuses';
import { readInThread } from '../commerceml/read-in-thread';
import type { NamedValue, OrderDocumentRecord, OrderForExchange } from '../commerceml/records';
import { writeOrdersDocument } from '../commerceml/write-orders';
import type { Database } from '../db/database';
import { CANCELLED_STATUS, PAID_STATUS, SHIPPED_STATUS } from '../domain/order-workflow';
import { DomainError } from '../domain/domain-errors';
import type { ShopMail } from '../mail/letter';
import { createExchangeOrdersRepository, type SentOrder } from '../repositories/exchange-orders';
import { changeStatusLocked } from './orders';

/**
 * Orders one query sends at most: 1С takes a document of any size, but one of 10 000 orders after a
 * long pause would be one long request; the rest go with the next exchange, oldest first.
 */
export const ORDERS_PER_QUERY = 500;

/** The words the order's history and the buyer's letter give for a change 1С made. */
export const FROM_ONE_C = 'По данным 1С';

/** The statuses an order has passed once it is in each: a change 1С reports again is no change. */
const REACHED: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  Создан: [],
  'Ожидает оплаты': [],
  Оплачен: [PAID_STATUS],
  Отправлен: [PAID_STATUS, SHIPPED_STATUS],
  Доставлен: [PAID_STATUS, SHIPPED_STATUS],
  Отменён: [CANCELLED_STATUS],
};

const requisite = (requisites: NamedValue[], name: string) =>
  requisites.find((item) => item.name.trim().toLowerCase() === name.toLowerCase())?.value.trim() ?? '';

/** A date requisite of 1С: «T» or empty is none (1С writes an empty date so). */
const dateGiven = (value: string) => value !== '' && value !== 'T' && !value.startsWith('0001-01-01');

/** What 1С's document asks of the order, in the order the workflow takes the steps. */
export function stepsOf(document: OrderDocumentRecord): OrderStatus[] | 'cancel' {
  const requisites = document.requisites;
  if (
    requisite(requisites, 'ПометкаУдаления') === 'true' ||
    /отмен/i.test(requisite(requisites, 'Статус заказа')) ||
    requisite(requisites, 'Отменен') === 'true'
  )
    return 'cancel';
  const steps: OrderStatus[] = [];
  if (dateGiven(requisite(requisites, 'Дата оплаты по 1С'))) steps.push(PAID_STATUS);
  if (dateGiven(requisite(requisites, 'Дата отгрузки по 1С'))) steps.push(SHIPPED_STATUS);
  return steps;
}

const money = (value: string | number) => Number(value);

/** 1С's version of the order when its lines or sum differ from what the buyer placed, else null. */
function oneCVersion(
  document: OrderDocumentRecord,
  placed: { externalId: string | null; article: string; price: string; quantity: number }[],
  total: number,
): Omit<OneCOrderDocument, 'receivedAt'> | null {
  const key = (id: string | null, article: string) => id ?? `art:${article}`;
  const placedLines = new Map(placed.map((line) => [key(line.externalId, line.article), line]));
  const same =
    document.lines.length === placed.length &&
    (document.sum === null || Math.abs(document.sum - total) < 0.005) &&
    document.lines.every((line) => {
      const mine = placedLines.get(line.id) ?? placedLines.get(`art:${line.article}`);
      return mine !== undefined && mine.quantity === line.quantity && Math.abs(money(mine.price) - line.price) < 0.005;
    });
  if (same || document.lines.length === 0) return null;
  return {
    number: document.number,
    sum: document.sum,
    lines: document.lines.map(({ id, article, name, price, quantity, sum }) => ({
      id,
      article,
      name,
      price,
      quantity,
      sum,
    })),
  };
}

export function createExchangeOrders(db: Database, shop: ShopMail) {
  const forDocument = async (sent: SentOrder[]): Promise<OrderForExchange[]> => {
    const repository = createExchangeOrdersRepository(db);
    const ids = sent.map((order) => order.id);
    const [rows, lines] = await Promise.all([repository.findForDocument(ids), repository.linesOf(ids)]);
    return rows.map((row) => ({
      id: row.id,
      number: String(row.id),
      createdAt: row.createdAt,
      status: row.status,
      paid: (REACHED[row.status as OrderStatus] ?? []).includes(PAID_STATUS),
      cancelled: row.status === CANCELLED_STATUS,
      total: money(row.total),
      comment: null,
      deliveryAddress: row.address,
      contact: { name: row.contactName, phone: row.contactPhone, email: row.email },
      legalEntity:
        row.entityId === null
          ? null
          : {
              id: row.entityId,
              name: row.entityName!,
              fullName: row.entityName!,
              inn: row.entityInn,
              kpp: row.entityKpp,
              address: row.entityAddress || null,
            },
      companyName: row.companyName,
      lines: lines
        .filter((line) => line.orderId === row.id)
        .map((line) => ({
          externalId: line.externalId,
          article: line.article,
          name: `${line.name} (${line.color}, ${line.size} см)`,
          price: money(line.price),
          quantity: line.quantity,
          sum: Math.round(money(line.price) * line.quantity * 100) / 100,
        })),
    }));
  };

  return {
    /**
     * `query`: the document of every order 1С has not confirmed (up to ORDERS_PER_QUERY), recorded
     * on the run with the change each was sent at. A query again before `success` sends them again,
     * with any order that became pending meanwhile.
     */
    async query(runId: string): Promise<string> {
      const repository = createExchangeOrdersRepository(db);
      const sent = await repository.pending(ORDERS_PER_QUERY);
      await repository.recordSent(runId, sent);
      return writeOrdersDocument(await forDocument(sent), new Date());
    },

    /** `success`: 1С has what the run's query sent; those orders are confirmed as they were sent. */
    async confirm(runId: string): Promise<number> {
      const repository = createExchangeOrdersRepository(db);
      const sent = await repository.sentOrders(runId);
      const confirmed = sent ? await repository.confirm(sent) : 0;
      await repository.recordRun(runId, { ordersSent: sent?.length ?? 0 }, true);
      return confirmed;
    },

    /**
     * 1С's orders file: each document's payment, shipment or cancellation made on the order through
     * the order workflow (history and the buyer's letter, as when a manager does it, but not sent
     * back to 1С), and 1С's lines kept beside the buyer's when they differ. A document the shop
     * does not know, or a step the workflow refuses, is a row error; applying the file again
     * changes nothing.
     */
    async applyFile(runId: string, path: string, fileName: string): Promise<ExchangeRunStats> {
      const stats: Required<Pick<ExchangeRunStats, 'ordersUpdated' | 'errors'>> = { ordersUpdated: 0, errors: [] };
      for await (const batch of readInThread('orders', path, fileName)) {
        for (const document of batch) {
          const problem = await applyDocument(document);
          if (problem === 'updated') stats.ordersUpdated += 1;
          else if (problem) stats.errors.push(`${fileName}: документ ${document.number || document.id}: ${problem}`);
        }
      }
      await createExchangeOrdersRepository(db).recordRun(runId, stats, false);
      return stats;
    },

    /** The back office's «send again»: the orders go with the next query. Returns the ids found. */
    resend: (orderIds: number[]): Promise<number[]> => createExchangeOrdersRepository(db).resend(orderIds),
  };

  /** 'updated', null when nothing changed, or why the document was not applied. */
  async function applyDocument(document: OrderDocumentRecord): Promise<'updated' | string | null> {
    return db.transaction(async (tx) => {
      const repository = createExchangeOrdersRepository(tx);
      const order = await repository.findByNumber([document.number, document.id]);
      if (!order) return 'такого заказа нет в магазине';
      let changed = false;
      const steps = stepsOf(document);
      const wanted = steps === 'cancel' ? [CANCELLED_STATUS] : steps;
      let status = order.status;
      for (const to of wanted) {
        if (REACHED[status].includes(to)) continue;
        try {
          await changeStatusLocked(tx, order.id, { to, source: '1c', byUserId: null, comment: FROM_ONE_C }, shop);
        } catch (error) {
          if (error instanceof DomainError) return `${error.message}`;
          throw error;
        }
        status = to;
        changed = true;
      }
      const placed = await repository.linesOf([order.id]);
      const version = oneCVersion(
        document,
        placed,
        placed.reduce((sum, line) => sum + money(line.price) * line.quantity, 0),
      );
      const before =
        order.oneC === null ? null : { number: order.oneC.number, sum: order.oneC.sum, lines: order.oneC.lines };
      // Compared as plain values: jsonb keeps an object's keys in an order of its own, and the
      // embedded database's driver gives objects of another prototype.
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(version)), JSON.parse(JSON.stringify(before)))) {
        await repository.setOneCDocument(order.id, version && { ...version, receivedAt: new Date().toISOString() });
        changed = true;
      }
      return changed ? 'updated' : null;
    });
  }
}

export type ExchangeOrders = ReturnType<typeof createExchangeOrders>;
