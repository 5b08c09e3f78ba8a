import { and, asc, desc, eq, gt, isNotNull, isNull, sql, type AnyColumn } from 'drizzle-orm';
import { DELETED_PERSONAL_DATA } from '../../shared/account';
import type { AdminBuyer, User } from '../../shared/api';
import type { UserRole } from '../../shared/user-roles';
import type { CompanyRole } from '../../shared/company';
import type { Queryable } from '../db/database';
import { auditLog, companies, orders, passwordResetTokens, refreshTokens, users } from '../db/schema';
import type { BuyerStanding } from '../domain/buyer-standing';
import { createAuditRepository } from './audit';
import { createOutboxRepository } from './outbox';
import { createRefreshTokensRepository } from './refresh-tokens';

const userColumns = { id: users.id, email: users.email, role: users.role };

/** The account's company as GET /auth/user names it. */
export interface AccountCompany {
  id: number;
  name: string;
  role: CompanyRole;
  blocked: boolean;
}

export function createUsersRepository(db: Queryable) {
  return {
    /**
     * A new account, the owner of a new company of one named by its address; `null` when the e-mail
     * is taken (the unique index decides, so two racing sign-ups cannot both win, and the loser's
     * company goes with its transaction).
     */
    create(email: string, passwordHash: string, personalDataConsentAt?: Date): Promise<User | null> {
      return db.transaction(async (tx) => {
        const [company] = await tx.insert(companies).values({ name: email }).returning({ id: companies.id });
        const [row] = await tx
          .insert(users)
          .values({ email, passwordHash, personalDataConsentAt, companyId: company!.id, companyRole: 'owner' })
          .onConflictDoNothing({ target: users.email })
          .returning(userColumns);
        if (!row) await tx.delete(companies).where(eq(companies.id, company!.id));
        return row ?? null;
      });
    },

    /**
     * A new account made by accepting an invitation: an employee of the inviting company, its address
     * confirmed (the invitation's letter reached it) and its consent recorded now. Null when taken.
     */
    async insertMember(
      email: string,
      passwordHash: string,
      { companyId, role, now }: { companyId: number; role: CompanyRole; now: Date },
    ): Promise<User | null> {
      const [row] = await db
        .insert(users)
        .values({
          email,
          passwordHash,
          companyId,
          companyRole: role,
          personalDataConsentAt: now,
          emailConfirmedAt: now,
        })
        .onConflictDoNothing({ target: users.email })
        .returning(userColumns);
      return row ?? null;
    },

    /** An existing account accepting an invitation: the letter reached the address, and the consent is its own. */
    async confirmAndConsent(id: number, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})`, personalDataConsentAt: now })
        .where(eq(users.id, id));
    },

    /** The password's hash with the session version it goes with (sessions.start checks it is still current). */
    async findCredentials(email: string) {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          passwordHash: users.passwordHash,
          sessionVersion: users.sessionVersion,
        })
        .from(users)
        .where(eq(users.email, email));
      return row ?? null;
    },

    /** The account's e-mail (whose attempts the password checks count as) and the password's hash. */
    async findCredentialsById(id: number): Promise<{ email: string; passwordHash: string } | null> {
      const [row] = await db
        .select({ email: users.email, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, id));
      return row ?? null;
    },

    /**
     * The account's session version, its row held (FOR SHARE) until the caller's transaction ends:
     * a password change (which updates the row) waits for the session being granted, or it waits
     * for the change. Null when the account is gone.
     */
    async holdSessionVersion(id: number): Promise<number | null> {
      const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, id)).for('share');
      return row?.version ?? null;
    },

    /** The account as the buyer's export shows it. */
    async findAccount(id: number) {
      const [row] = await db
        .select({
          ...userColumns,
          createdAt: users.createdAt,
          personalDataConsentAt: users.personalDataConsentAt,
        })
        .from(users)
        .where(eq(users.id, id));
      return row ?? null;
    },

    /**
     * A new password, and every session of the account ends (its refresh tokens revoked, its
     * access tokens refused) but the one whose refresh token's hash is `keptRefreshTokenHash`.
     * Raising the session version refuses a sign-in whose password was checked before. Returns
     * the sessions revoked.
     */
    setPassword(id: number, passwordHash: string, now: Date, keptRefreshTokenHash?: string): Promise<string[]> {
      return db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
          .where(eq(users.id, id));
        const [kept] = keptRefreshTokenHash
          ? await tx
              .select({ familyId: refreshTokens.familyId })
              .from(refreshTokens)
              // Only a live token keeps its session: a stale one (spent, revoked, expired) may be what a
              // thief rotated away from, and its family is now the thief's.
              .where(
                and(
                  eq(refreshTokens.tokenHash, keptRefreshTokenHash),
                  eq(refreshTokens.userId, id),
                  isNull(refreshTokens.usedAt),
                  isNull(refreshTokens.revokedAt),
                  gt(refreshTokens.expiresAt, now),
                ),
              )
          : [];
        // A reset link sent before the change must not undo it.
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.userId, id), isNull(passwordResetTokens.usedAt)));
        return createRefreshTokensRepository(tx).revokeSessionsOf(id, now, kept?.familyId);
      });
    },

    /**
     * Deletes the account with its sessions, cart and contact details (their foreign keys cascade).
     * With `dissolveCompany` (it was the company's only member) the company goes too, with its
     * addresses, legal entities and invitations, and its orders stay for accounting with every
     * personal field replaced by DELETED_PERSONAL_DATA and no link to anyone (docs/decisions.md);
     * otherwise the orders the account placed stay its company's, only its own name and phone
     * erased from them. Its address is erased from the journal's entries about it, and the letters
     * to it go from the outbox, sent or waiting. Returns the sessions revoked.
     */
    deleteAccount(id: number, now: Date, { dissolveCompany }: { dissolveCompany: boolean }): Promise<string[]> {
      const erased = (column: AnyColumn) => sql`case when ${isNotNull(column)} then ${DELETED_PERSONAL_DATA} end`;
      return db.transaction(async (tx) => {
        // First the account's row, for update: an order being placed for it (whose foreign key
        // holds a share lock on the row) finishes first and is anonymised with the rest, and one
        // placed later waits and then finds no account, so no order keeps the buyer's details.
        const [account] = await tx
          .select({ email: users.email, companyId: users.companyId })
          .from(users)
          .where(eq(users.id, id))
          .for('update');
        if (!account) return [];
        await createOutboxRepository(tx).forgetMailTo(account.email);
        // Recorded apart from the account's refresh tokens, which go with it, so its access tokens stay refused.
        const revoked = await createRefreshTokensRepository(tx).revokeSessionsOf(id, now);
        const personal = {
          contactName: erased(orders.contactName),
          contactPhone: erased(orders.contactPhone),
          placedByName: erased(orders.placedByName),
          idempotencyKey: null,
          requestDigest: null,
          updatedAt: new Date(),
        };
        await tx
          .update(orders)
          .set(
            dissolveCompany
              ? {
                  ...personal,
                  address: DELETED_PERSONAL_DATA,
                  companyName: erased(orders.companyName),
                  companyInn: erased(orders.companyInn),
                  companyKpp: erased(orders.companyKpp),
                }
              : personal,
          )
          .where(dissolveCompany ? eq(orders.companyId, account.companyId) : eq(orders.userId, id));
        // The journal keeps that the account's role changed, not whose address it was.
        const erasedEmail = (column: AnyColumn) =>
          sql`case when ${column} -> 'email' is not null then jsonb_set(${column}, '{email}', to_jsonb(${DELETED_PERSONAL_DATA}::text)) else ${column} end`;
        await tx
          .update(auditLog)
          .set({ before: erasedEmail(auditLog.before), after: erasedEmail(auditLog.after) })
          .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(id))));
        await tx.delete(users).where(eq(users.id, id));
        if (dissolveCompany) {
          // The company's own journal held its employees' addresses and its legal entities' details.
          await tx
            .delete(auditLog)
            .where(and(eq(auditLog.entity, 'company'), eq(auditLog.entityId, String(account.companyId))));
          await tx.delete(companies).where(eq(companies.id, account.companyId));
        }
        return revoked;
      });
    },

    async findById(id: number): Promise<User | null> {
      const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
      return row ?? null;
    },

    /** The account with its company, role and standing (domain/buyer-standing.ts says what follows from it). */
    async findWithStanding(id: number): Promise<(User & BuyerStanding & { company: AccountCompany }) | null> {
      const [row] = await db
        .select({
          ...userColumns,
          confirmed: sql<boolean>`${users.emailConfirmedAt} is not null`,
          proven: sql<boolean>`${companies.firstPaidAt} is not null or ${companies.trustedAt} is not null`,
          company: {
            id: companies.id,
            name: companies.name,
            role: users.companyRole,
            blocked: sql<boolean>`${companies.blockedAt} is not null`,
          },
        })
        .from(users)
        .innerJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, id));
      return row ?? null;
    },

    /**
     * A manager marks a buyer's company as trusted (or takes it back), written to the journal in
     * the same transaction. Null for an unknown account or one that is not a buyer's. Orders placed
     * before keep the terms they were placed under (docs/decisions.md).
     */
    setTrusted(id: number, trusted: boolean, byUserId: number): Promise<AdminBuyer | null> {
      return db.transaction(async (tx) => {
        const columns = {
          id: users.id,
          email: users.email,
          companyId: companies.id,
          trusted: sql<boolean>`${companies.trustedAt} is not null`,
          has_paid_order: sql<boolean>`${companies.firstPaidAt} is not null`,
        };
        // Only a buyer's account: a manager's is no customer to trust.
        const [before] = await tx
          .select(columns)
          .from(users)
          .innerJoin(companies, eq(companies.id, users.companyId))
          .where(and(eq(users.id, id), eq(users.role, 'buyer')))
          .for('update', { of: companies });
        if (!before) return null;
        const { companyId, ...buyer } = before;
        if (before.trusted === trusted) return buyer;
        await tx
          .update(companies)
          .set({ trustedAt: trusted ? new Date() : null })
          .where(eq(companies.id, companyId));
        await createAuditRepository(tx).record({
          byUserId,
          action: trusted ? 'company.trust' : 'company.distrust',
          entity: 'company',
          entityId: companyId,
          before: { trusted: before.trusted },
          after: { trusted },
        });
        return { ...buyer, trusted };
      });
    },

    /**
     * `null` for an unknown e-mail (stored lower-cased, so it is looked up the same way). A change
     * is written to the audit log in the same transaction; setting the role it has changes nothing.
     */
    async setRole(email: string, role: UserRole): Promise<User | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select(userColumns)
          .from(users)
          .where(eq(users.email, email.trim().toLowerCase()))
          .for('update');
        if (!before || before.role === role) return before ?? null;
        const [after] = await tx
          .update(users)
          // A manager is someone the shop knows: the address needs no letter to be confirmed.
          .set(
            role === 'manager' ? { role, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())` } : { role },
          )
          .where(eq(users.id, before.id))
          .returning(userColumns);
        // Who may see and change the catalogue and the orders is a change like those: in the log,
        // by nobody (the command line, as an operator runs it on the server).
        await createAuditRepository(tx).record({
          byUserId: null,
          action: 'user.role',
          entity: 'user',
          entityId: before.id,
          before: { email: before.email, role: before.role },
          after: { email: after!.email, role },
        });
        return after!;
      });
    },

    /** Managers first, then everyone else, each in order of sign-up. */
    list(): Promise<User[]> {
      return db.select(userColumns).from(users).orderBy(desc(users.role), asc(users.id));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
