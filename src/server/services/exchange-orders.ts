// The orders' side of 1С's «Обмен с сайтом» (type=sale): the query's document of every order 1С has
// not confirmed as it is now, the `success` that confirms exactly those, and the statuses and lines
// 1С's file sends back, applied through the order workflow as a manager's change is.
import { createHash } from 'node:crypto';
import type { ExchangeRunStats, OneCOrderDocument } from '../../shared/exchange';
import type { OrderStatus } from '../../shared/order-statuses';
import { decimalToKopecks, kopecksToRubles, rublesToKopecks } from '../../shared/money';
import { formatCalendarDay } from '../../shared/dates';
import { readInThread } from '../commerceml/read-in-thread';
import {
  CommerceMlError,
  type NamedValue,
  type OrderDocumentRecord,
  type OrderForExchange,
} from '../commerceml/records';
import { writeOrdersDocument } from '../commerceml/write-orders';
import type { Database } from '../db/database';
import { DomainError } from '../domain/domain-errors';
import { CANCELLED_STATUS, PAID_STATUS, SHIPPED_STATUS, stepsFromOneC } from '../domain/order-workflow';
import type { ShopMail } from '../mail/letter';
import {
  createExchangeOrdersRepository,
  type PendingLineRow,
  type PendingOrderRow,
} from '../repositories/exchange-orders';
import { createAuditRepository } from '../repositories/audit';
import { createOrdersRepository } from '../repositories/orders';
import { changeStatusLocked } from './orders';

/** Orders one query sends at most: the rest go in the next exchange's, which 1С makes on its schedule. */
export const ORDERS_PER_QUERY = 1000;

/** Documents one orders file of 1С may hold: it describes the orders the queries sent, 1000 at a time. */
export const MAX_ORDER_DOCUMENTS = 10_000;

/**
 * The Контрагент's Ид of an order made out to no legal entity of the shop's: a name-based UUID (MD5,
 * version 3) of the typed ИНН and КПП — the same firm is one counterparty in 1С whichever company
 * typed it — or, without an ИНН, of the order itself.
 */
function counterpartyId(order: PendingOrderRow): string {
  const name = order.companyInn ? `inn:${order.companyInn}/${order.companyKpp ?? ''}` : `order:${order.id}`;
  const bytes = createHash('md5').update(`myagkiy-opt:counterparty:${name}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function forExchange(order: PendingOrderRow, lines: PendingLineRow[]): OrderForExchange {
  const entity = order.entity;
  const companyName = order.companyName ?? entity?.name ?? order.contactName ?? 'Покупатель';
  return {
    id: order.id,
    number: String(order.id),
    createdAt: order.createdAt,
    status: order.status,
    paid: [PAID_STATUS, SHIPPED_STATUS, 'Доставлен'].includes(order.status as OrderStatus),
    cancelled: order.status === CANCELLED_STATUS,
    total: Number(order.totalPrice),
    // The shop's orders carry no buyer's comment.
    comment: null,
    deliveryAddress: order.address,
    contact: { name: order.contactName, phone: order.contactPhone, email: order.placerEmail },
    legalEntity: entity
      ? {
          id: entity.id,
          name: entity.name,
          fullName: entity.name,
          inn: entity.inn,
          kpp: entity.kpp,
          address: entity.address || null,
        }
      : {
          id: counterpartyId(order),
          name: companyName,
          fullName: companyName,
          inn: order.companyInn,
          kpp: order.companyKpp,
          address: null,
        },
    companyName,
    lines: lines.map((line) => ({
      externalId: line.externalId,
      article: line.article,
      name: `${line.name} (${line.color}, ${line.size})`,
      price: Number(line.price),
      quantity: line.quantity,
      sum: kopecksToRubles(decimalToKopecks(line.price) * line.quantity),
    })),
  };
}

/** A requisite's value by its name, as 1С wrote it ('' when absent). */
const requisite = (requisites: NamedValue[], name: string) =>
  requisites.find((item) => item.name.trim().toLowerCase() === name.toLowerCase())?.value.trim() ?? '';

/** A date requisite: 1С writes «T» (or nothing) for none. Its day, YYYY-MM-DD, or null. */
function dateOf(value: string): string | null {
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1];
  return day && day !== '0001-01-01' ? day : null;
}

const isTrue = (value: string) => value.toLowerCase() === 'true';

/** What 1С's document says of the order: paid (and when), shipped (and when), cancelled. */
function oneCState(requisites: NamedValue[]) {
  const paidOn = dateOf(requisite(requisites, 'Дата оплаты по 1С'));
  const shippedOn = dateOf(requisite(requisites, 'Дата отгрузки по 1С'));
  const cancelled =
    isTrue(requisite(requisites, 'ПометкаУдаления')) ||
    isTrue(requisite(requisites, 'Отменен')) ||
    /отмен[её]н/i.test(requisite(requisites, 'Статус заказа'));
  return { paid: paidOn !== null, shipped: shippedOn !== null, cancelled, paidOn, shippedOn };
}

/** The comment the history and the buyer's letter carry for a change 1С made. */
function oneCComment(to: OrderStatus, { paidOn, shippedOn }: { paidOn: string | null; shippedOn: string | null }) {
  const day = to === PAID_STATUS ? paidOn : to === SHIPPED_STATUS ? shippedOn : null;
  return day ? `По данным 1С, ${formatCalendarDay(day)}` : 'По данным 1С';
}

/** A line's signature for comparing 1С's lines with the placed ones: price in kopecks and quantity. */
const signature = (price: number, quantity: number) => `${rublesToKopecks(price)}×${quantity}`;

/**
 * Whether 1С's lines and sum say what the buyer placed: the same prices and quantities, the same
 * total, and every placed variant that came from 1С among 1С's Ид (a variant made on the site has
 * an Ид in 1С the shop does not know).
 */
function agrees(
  document: OrderDocumentRecord,
  placed: { externalId: string | null; price: string; quantity: number }[],
): boolean {
  const total = placed.reduce((sum, line) => sum + decimalToKopecks(line.price) * line.quantity, 0);
  if (document.sum !== null && rublesToKopecks(document.sum) !== total) return false;
  const ours = placed.map((line) => signature(Number(line.price), line.quantity)).sort();
  const theirs = document.lines.map((line) => signature(line.price, line.quantity)).sort();
  if (ours.join() !== theirs.join()) return false;
  const ids = new Set(document.lines.map((line) => line.id));
  return placed.every((line) => line.externalId === null || ids.has(line.externalId));
}

/** 1С's version without the moment it came, its keys in one order (jsonb keeps its own). */
const essence = (document: OneCOrderDocument | null) =>
  document &&
  JSON.stringify([
    document.number,
    document.sum,
    document.lines.map((line) => [line.id, line.article, line.name, line.price, line.quantity, line.sum]),
  ]);

/** The shop's order a Документ names: its Ид as the shop sent it, else its Номер; null for 1С's own. */
function orderIdOf(document: OrderDocumentRecord): number | null {
  for (const candidate of [document.id, document.number]) {
    const text = candidate.trim().replace(/^0+/, '');
    if (/^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647) return Number(text);
  }
  return null;
}

export function createExchangeOrders(db: Database, shop: ShopMail) {
  /** Applies one Документ in a transaction of its own; returns whether the order changed, or a row error. */
  async function applyDocument(document: OrderDocumentRecord, fileName: string): Promise<boolean | string> {
    const where = `${fileName}, документ ${document.number || document.id}`;
    const orderId = orderIdOf(document);
    if (orderId === null) return `${where}: на сайте нет такого заказа`;
    return db.transaction(async (tx) => {
      const exchange = createExchangeOrdersRepository(tx);
      // Locked first: a manager's change of the same order waits, and each sees the other's status.
      const locked = await createOrdersRepository(tx).lockForChange(orderId);
      const order = locked && (await exchange.findForOneC(orderId));
      if (!locked || !order) return `${where}: на сайте нет такого заказа`;
      let changed = false;
      const state = oneCState(document.requisites);
      // The lines first: a cancel below gives back the stock of the lines placed, whatever 1С's say.
      const placed = await exchange.placedLines(orderId);
      const oneC: OneCOrderDocument | null =
        document.lines.length === 0 || agrees(document, placed)
          ? null
          : {
              receivedAt: new Date().toISOString(),
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
      if (essence(order.oneCDocument) !== essence(oneC)) {
        await exchange.setOneCDocument(orderId, oneC);
        changed = true;
      }
      const plan = stepsFromOneC(locked.status, state);
      if ('refused' in plan) return changed || `${where}: ${plan.refused}`;
      for (const to of plan.steps) {
        await changeStatusLocked(
          tx,
          orderId,
          { to, source: '1c', byUserId: null, comment: oneCComment(to, state) },
          shop,
        );
        changed = true;
      }
      return changed;
    });
  }

  return {
    /** The document of every order 1С has not confirmed as it is now; records what it sent on the run. */
    query(runId: string): Promise<string> {
      return db.transaction(async (tx) => {
        const exchange = createExchangeOrdersRepository(tx);
        await exchange.lockRun(runId);
        const pending = await exchange.pendingOrders(ORDERS_PER_QUERY);
        const lines = await exchange.lines(pending.map((order) => order.id));
        const byOrder = new Map<number, PendingLineRow[]>();
        for (const line of lines) {
          const ofOrder = byOrder.get(line.orderId);
          if (ofOrder) ofOrder.push(line);
          else byOrder.set(line.orderId, [line]);
        }
        await exchange.recordSent(
          runId,
          pending.map((order) => ({ id: order.id, changedAt: order.changedAt })),
        );
        return writeOrdersDocument(
          pending.map((order) => forExchange(order, byOrder.get(order.id) ?? [])),
          new Date(),
        );
      });
    },

    /**
     * 1С's `success`: the orders the run's query sent are confirmed at the change they were sent at
     * (a change made since is sent again). No query in the run: nothing to confirm.
     */
    confirm(runId: string): Promise<number> {
      return db.transaction(async (tx) => {
        const exchange = createExchangeOrdersRepository(tx);
        const run = await exchange.lockRun(runId);
        const sent = run?.sentOrders ?? [];
        await exchange.finishRun(runId, sent.length);
        return exchange.confirmSent(sent);
      });
    },

    /**
     * 1С's orders file: read whole first (a broken file throws CommerceMlError and changes nothing),
     * then each Документ applied to the shop's order it names. A document the shop does not know,
     * or a status the shop's order cannot take, is a row error of the run, not a failure.
     */
    async applyFile(runId: string, path: string, fileName: string): Promise<ExchangeRunStats> {
      const documents: OrderDocumentRecord[] = [];
      for await (const batch of readInThread('orders', path, fileName)) {
        documents.push(...batch);
        // Held whole so that a broken file changes nothing: bounded, as every upload is.
        if (documents.length > MAX_ORDER_DOCUMENTS)
          throw new CommerceMlError(fileName, null, `больше ${MAX_ORDER_DOCUMENTS} документов в одном файле`);
      }
      let ordersUpdated = 0;
      const errors: string[] = [];
      for (const document of documents) {
        try {
          const outcome = await applyDocument(document, fileName);
          if (typeof outcome === 'string') errors.push(outcome);
          else if (outcome) ordersUpdated += 1;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push(`${fileName}, документ ${document.number || document.id}: ${error.message}`);
        }
      }
      await createExchangeOrdersRepository(db).addStats(runId, ordersUpdated, errors);
      return { ordersUpdated, errors };
    },

    /**
     * The back office's «send again»: the orders go in the next query as if changed now, in the
     * audit log by the manager. Returns the ids of those that exist.
     */
    resend(orderIds: number[], byUserId: number | null): Promise<number[]> {
      return db.transaction(async (tx) => {
        const resent = await createExchangeOrdersRepository(tx).markChanged([...new Set(orderIds)]);
        if (resent.length > 0) {
          await createAuditRepository(tx).record({
            byUserId,
            action: 'exchange.resend',
            entity: 'order',
            entityId: null,
            after: { order_ids: resent },
          });
        }
        return resent;
      });
    },
  };
}

export type ExchangeOrders = ReturnType<typeof createExchangeOrders>;
