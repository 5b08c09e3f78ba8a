import { and, asc, count, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { mailQueuedNotice } from '../db/notifications';
import { mailOutbox } from '../db/schema';

/**
 * A message to queue: a letter (mail/ composes it), its one recipient and what goes with it, drawn
 * when it is sent: for an invoice, the order whose PDF; for an order's letters, the order whose spreadsheet.
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  invoiceOrderId?: number;
  sheetOrderId?: number;
}

/**
 * The insert of `mail` into the outbox: one statement with a fixed number of parameters however many
 * messages there are, to run alone or as a data-modifying CTE of a larger one (placing an order).
 */
export function mailInsert(mail: readonly OutgoingMail[]): SQL {
  const column = (value: (message: OutgoingMail) => unknown) => sql.param(mail.map(value));
  return sql`insert into ${mailOutbox} (recipient, subject, html, text, invoice_order_id, sheet_order_id)
    select * from unnest(${column(({ to }) => to)}::text[], ${column(({ subject }) => subject)}::text[],
      ${column(({ html }) => html)}::text[], ${column(({ text }) => text)}::text[],
      ${column(({ invoiceOrderId }) => invoiceOrderId ?? null)}::int[],
      ${column(({ sheetOrderId }) => sheetOrderId ?? null)}::int[])`;
}

/** What waits in the outbox, for the metrics. */
export interface OutboxBacklog {
  /** Messages neither sent nor given up, retries waiting for their time included. */
  pending: number;
  /** How long the oldest of them has waited; 0 when none does. */
  oldestSeconds: number;
}

export type ClaimedMail = Awaited<ReturnType<OutboxRepository['claim']>>[number];

const unsettled = and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt));

export function createOutboxRepository(db: Queryable) {
  return {
    /**
     * Queues messages inside the caller's transaction: they exist only if the event that causes them
     * commits, and then the senders of every process are nudged.
     */
    async queue(mail: OutgoingMail | OutgoingMail[]): Promise<void> {
      const list = Array.isArray(mail) ? mail : [mail];
      if (list.length === 0) return;
      await db.execute(sql`with queued as (${mailInsert(list)}) select ${mailQueuedNotice}`);
    },

    /**
     * Forgets every message to an address whose account is being deleted, sent or not: the rows hold
     * the buyer's orders and contacts, and a letter still waiting must not reach an account that is gone.
     */
    async forgetMailTo(recipient: string): Promise<void> {
      await db.delete(mailOutbox).where(eq(mailOutbox.recipient, recipient));
    },

    /**
     * Takes up to `limit` due messages for this process: their next attempt moves `leaseSeconds`
     * ahead, so no other process takes them meanwhile (rows another one is claiming this instant
     * are skipped, not waited for), and one whose sender dies is due again when the lease ends.
     */
    claim(limit: number, leaseSeconds: number) {
      // Two statements in one transaction, not `update … where id in (select … limit n for update
      // skip locked)`: PostgreSQL may run such a subquery again for each row it updates, and so
      // claimed more rows than the limit (rows this sender then left waiting for their lease).
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(and(unsettled, lte(mailOutbox.nextAttemptAt, sql`now()`)))
          .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (due.length === 0) return [];
        return tx
          .update(mailOutbox)
          .set({
            attempts: sql`${mailOutbox.attempts} + 1`,
            nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
          })
          .where(
            inArray(
              mailOutbox.id,
              due.map(({ id }) => id),
            ),
          )
          .returning({
            id: mailOutbox.id,
            messageId: mailOutbox.messageId,
            recipient: mailOutbox.recipient,
            subject: mailOutbox.subject,
            html: mailOutbox.html,
            text: mailOutbox.text,
            invoiceOrderId: mailOutbox.invoiceOrderId,
            sheetOrderId: mailOutbox.sheetOrderId,
            attempts: mailOutbox.attempts,
            createdAt: mailOutbox.createdAt,
          });
      });
    },

    /** Read through the partial index of unsettled rows (mail_outbox_due_idx): the sent ones are never visited. */
    async backlog(): Promise<OutboxBacklog> {
      const [row] = await db
        .select({
          pending: count(),
          oldestSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8`,
        })
        .from(mailOutbox)
        .where(unsettled);
      return { pending: row?.pending ?? 0, oldestSeconds: Math.max(0, row?.oldestSeconds ?? 0) };
    },

    async markSent(id: number): Promise<void> {
      await db
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, lastError: null })
        .where(eq(mailOutbox.id, id));
    },

    async retryAt(id: number, at: Date, error: string): Promise<void> {
      await db.update(mailOutbox).set({ nextAttemptAt: at, lastError: error }).where(eq(mailOutbox.id, id));
    },

    async markFailed(id: number, error: string): Promise<void> {
      await db
        .update(mailOutbox)
        .set({ failedAt: sql`now()`, lastError: error })
        .where(eq(mailOutbox.id, id));
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
