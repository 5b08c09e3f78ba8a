import { desc, eq, sql } from 'drizzle-orm';
import type { AuditAction, AuditEntity } from '../../shared/audit';
import type { Queryable } from '../db/database';
import { auditLog, users } from '../db/schema';
import type { Page } from './products';

export interface AuditEntry {
  /** The manager who made the change; null for the command line. */
  byUserId: number | null;
  /** A verb on an entity: 'product.create', 'variant.update', 'invoice.issue', 'catalogue.import'… */
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
}

export function createAuditRepository(db: Queryable) {
  return {
    /** Call it with the transaction that makes the change, so the log and the change commit together. */
    async record({ byUserId, action, entity, entityId, before, after }: AuditEntry): Promise<void> {
      await db.insert(auditLog).values({
        byUserId,
        action,
        entity,
        entityId: entityId === null ? null : String(entityId),
        before: before ?? null,
        after: after ?? null,
      });
    },

    /** Newest first, with the manager's e-mail. */
    async list({ skip, limit }: Page) {
      const [items, [counted]] = await Promise.all([
        db
          .select({
            id: auditLog.id,
            at: auditLog.at,
            by_user_id: auditLog.byUserId,
            by_email: users.email,
            action: auditLog.action,
            entity: auditLog.entity,
            entity_id: auditLog.entityId,
            before: auditLog.before,
            after: auditLog.after,
          })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.byUserId))
          .orderBy(desc(auditLog.id))
          .limit(limit)
          .offset(skip),
        db.select({ total: sql<number>`count(*)::int` }).from(auditLog),
      ]);
      return { items, total: counted?.total ?? 0 };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
