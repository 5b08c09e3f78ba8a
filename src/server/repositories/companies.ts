// The buyer companies' SQL: membership, employees, legal entities, invitations and the managers'
// view of them. Rows or null only; who may do what is the company service's (services/companies.ts).
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Invitation, LegalEntity, ManagerContact, CompanyMember } from '../../shared/api';
import type { CompanyRole, LegalEntityKind } from '../../shared/company';
import type { Queryable } from '../db/database';
import { escapeLike } from '../db/like';
import {
  addresses,
  auditLog,
  companies,
  companyInvitations,
  legalEntities,
  orders,
  priceTypes,
  requisites,
  staffProfiles,
  users,
} from '../db/schema';

/** Who the caller is in their company, read on every request (a role change or a block applies at once). */
export interface Membership {
  companyId: number;
  role: CompanyRole;
  blocked: boolean;
  /** The company's price type; null: the default type. */
  priceTypeId: number | null;
}

/** A legal entity's fields as the service writes them (trimmed, blanks as null). */
export interface LegalEntityRow {
  kind: LegalEntityKind;
  name: string;
  inn: string;
  kpp: string | null;
  ogrn: string | null;
  address: string;
  bankName: string | null;
  bik: string | null;
  account: string | null;
  corrAccount: string | null;
}

const legalEntityColumns = {
  id: legalEntities.id,
  kind: legalEntities.kind,
  name: legalEntities.name,
  inn: legalEntities.inn,
  kpp: legalEntities.kpp,
  ogrn: legalEntities.ogrn,
  address: legalEntities.address,
  bank_name: legalEntities.bankName,
  bik: legalEntities.bik,
  account: legalEntities.account,
  corr_account: legalEntities.corrAccount,
  is_default: sql<boolean>`${legalEntities.id} is not distinct from ${companies.defaultLegalEntityId}`,
  last_used_at: legalEntities.lastUsedAt,
};

type LegalEntityRecord = Omit<LegalEntity, 'last_used_at'> & { last_used_at: Date | null };

const toLegalEntity = ({ last_used_at, ...entity }: LegalEntityRecord): LegalEntity => ({
  ...entity,
  last_used_at: last_used_at?.toISOString() ?? null,
});

const live = isNull(legalEntities.archivedAt);

/** An invitation still waiting: neither accepted nor revoked, and not expired. */
const pending = (now: Date) =>
  and(
    isNull(companyInvitations.acceptedAt),
    isNull(companyInvitations.revokedAt),
    gt(companyInvitations.expiresAt, now),
  );

const invitationColumns = {
  id: companyInvitations.id,
  email: companyInvitations.email,
  role: companyInvitations.role,
  created_at: companyInvitations.createdAt,
  expires_at: companyInvitations.expiresAt,
};

const toInvitation = (row: { id: number; email: string; role: CompanyRole; created_at: Date; expires_at: Date }) => ({
  ...row,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
});

/** A manager's public name, e-mail (the contact one, else the sign-in one), phone and messenger. */
const managerContactColumns = {
  name: sql<string>`coalesce(${staffProfiles.name}, ${users.email})`,
  email: sql<string>`coalesce(${staffProfiles.contactEmail}, ${users.email})`,
  phone: staffProfiles.phone,
  messenger_url: staffProfiles.messengerUrl,
};

/** The company's manager as its buyers see them, as a JSON scalar subquery (null when none is assigned). */
export const managerContactOf = (companyId: SQL | number): SQL<ManagerContact | null> =>
  sql`(select json_build_object('name', coalesce(sp.name, mu.email), 'email', coalesce(sp.contact_email, mu.email),
      'phone', sp.phone, 'messenger_url', sp.messenger_url)
    from ${companies} c join ${users} mu on mu.id = c.manager_id left join ${staffProfiles} sp on sp.user_id = mu.id
    where c.id = ${companyId})`;

// Advisory locks' two-key space: (this, company id) is one company's membership and legal entities
// being changed: an invitation accepted, a role changed, an employee removed, an entity added.
const COMPANY_CHANGE_LOCK = 0x636f6d; // 'com'

export function createCompaniesRepository(db: Queryable) {
  return {
    /** The account's company, role and whether the company is blocked; null when the account is gone. */
    async membershipOf(userId: number): Promise<Membership | null> {
      const [row] = await db
        .select({
          companyId: users.companyId,
          role: users.companyRole,
          blocked: sql<boolean>`${companies.blockedAt} is not null`,
          priceTypeId: companies.priceTypeId,
        })
        .from(users)
        .innerJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, userId));
      return row ?? null;
    },

    /** Queues changes of one company's members and legal entities behind one another until the transaction ends. */
    async lockChanges(companyId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${COMPANY_CHANGE_LOCK}::int, ${companyId}::int)`);
    },

    /**
     * The company's row, locked until the transaction ends: an order being placed for it (whose
     * foreign key holds the row's key) finishes first, and one placed later waits, so what is read
     * next of its orders stays true until the company is dissolved or merged.
     */
    async lockRow(companyId: number): Promise<void> {
      await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
    },

    async insert(name: string): Promise<number> {
      const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
      return row!.id;
    },

    async find(companyId: number) {
      const [row] = await db
        .select({
          id: companies.id,
          name: companies.name,
          createdAt: companies.createdAt,
          blocked: sql<boolean>`${companies.blockedAt} is not null`,
          trusted: sql<boolean>`${companies.trustedAt} is not null`,
          hasPaidOrder: sql<boolean>`${companies.firstPaidAt} is not null`,
          managerId: companies.managerId,
          defaultLegalEntityId: companies.defaultLegalEntityId,
          priceType: sql<{ id: number; name: string } | null>`(select json_build_object('id', pt.id, 'name', pt.name)
            from ${priceTypes} pt where pt.id = ${companies.priceTypeId})`,
        })
        .from(companies)
        .where(eq(companies.id, companyId));
      return row ?? null;
    },

    /** The company's price type (null: the default type). */
    async setPriceType(companyId: number, priceTypeId: number | null): Promise<void> {
      await db.update(companies).set({ priceTypeId }).where(eq(companies.id, companyId));
    },

    async rename(companyId: number, name: string): Promise<void> {
      await db.update(companies).set({ name }).where(eq(companies.id, companyId));
    },

    async setBlocked(companyId: number, blocked: boolean): Promise<void> {
      await db
        .update(companies)
        .set({ blockedAt: blocked ? sql`coalesce(${companies.blockedAt}, now())` : null })
        .where(eq(companies.id, companyId));
    },

    async setTrusted(companyId: number, trusted: boolean): Promise<void> {
      await db
        .update(companies)
        .set({ trustedAt: trusted ? sql`coalesce(${companies.trustedAt}, now())` : null })
        .where(eq(companies.id, companyId));
    },

    async setManager(companyId: number, managerId: number | null): Promise<void> {
      await db.update(companies).set({ managerId }).where(eq(companies.id, companyId));
    },

    async setDefaultLegalEntity(companyId: number, legalEntityId: string | null): Promise<void> {
      await db.update(companies).set({ defaultLegalEntityId: legalEntityId }).where(eq(companies.id, companyId));
    },

    async remove(companyId: number): Promise<void> {
      await db.delete(companies).where(eq(companies.id, companyId));
    },

    /** Owners first, then in order of joining (account ids). */
    async members(companyId: number): Promise<CompanyMember[]> {
      return db
        .select({ user_id: users.id, email: users.email, role: users.companyRole, name: requisites.contactName })
        .from(users)
        .leftJoin(requisites, eq(requisites.userId, users.id))
        .where(eq(users.companyId, companyId))
        .orderBy(sql`${users.companyRole} = 'owner' desc`, asc(users.id));
    },

    async countMembers(companyId: number): Promise<{ members: number; owners: number }> {
      const [row] = await db
        .select({
          members: sql<number>`count(*)::int`,
          owners: sql<number>`(count(*) filter (where ${users.companyRole} = 'owner'))::int`,
        })
        .from(users)
        .where(eq(users.companyId, companyId));
      return row ?? { members: 0, owners: 0 };
    },

    /** The employee's role in the company, or null when the account is not one of its employees. */
    async roleOf(companyId: number, userId: number): Promise<CompanyRole | null> {
      const [row] = await db
        .select({ role: users.companyRole })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
      return row?.role ?? null;
    },

    async setRole(userId: number, role: CompanyRole): Promise<void> {
      await db.update(users).set({ companyRole: role }).where(eq(users.id, userId));
    },

    /** The account now works for `companyId`, in `role`. */
    async moveMember(userId: number, companyId: number, role: CompanyRole): Promise<void> {
      await db.update(users).set({ companyId, companyRole: role }).where(eq(users.id, userId));
    },

    /** An account by its address, with its company's size and whether that company ever ordered. */
    async findAccountByEmail(email: string) {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          companyId: users.companyId,
          role: users.companyRole,
          // Qualified by hand: drizzle prints a one-table select's columns unqualified, and inside the
          // subqueries a bare "company_id" would be the subquery's own.
          colleagues: sql<number>`(select count(*)::int - 1 from ${users} u2 where u2.company_id = ${users}.company_id)`,
          companyHasOrders: sql<boolean>`exists (select 1 from ${orders} o where o.company_id = ${users}.company_id)`,
        })
        .from(users)
        .where(eq(users.email, email));
      return row ?? null;
    },

    async findEmail(userId: number): Promise<string | null> {
      const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      return row?.email ?? null;
    },

    async hasOrders(companyId: number): Promise<boolean> {
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.companyId, companyId)).limit(1);
      return row !== undefined;
    },

    /** The company's delivery addresses and legal entities go to another company (its one-person company dissolving into it). */
    async moveBelongings(fromCompanyId: number, toCompanyId: number): Promise<void> {
      await db.update(addresses).set({ companyId: toCompanyId }).where(eq(addresses.companyId, fromCompanyId));
      // An entity the new company already has (the same ИНН and КПП) is not brought twice: the
      // orders made out to it name the new company's, and it goes with the old company.
      await db.execute(sql`update ${orders} o set legal_entity_id = kept.id
        from ${legalEntities} dup join ${legalEntities} kept on kept.company_id = ${toCompanyId}
          and kept.archived_at is null and kept.inn = dup.inn and kept.kpp is not distinct from dup.kpp
        where dup.company_id = ${fromCompanyId} and o.legal_entity_id = dup.id`);
      await db.execute(sql`update ${legalEntities} le set company_id = ${toCompanyId}
        where le.company_id = ${fromCompanyId} and not exists (
          select 1 from ${legalEntities} kept where kept.company_id = ${toCompanyId} and kept.archived_at is null
            and kept.inn = le.inn and kept.kpp is not distinct from le.kpp)`);
    },

    /** A merge: the orders, and the employees in the roles they had (its owners as purchasers), go too. */
    async moveOrdersAndMembers(fromCompanyId: number, toCompanyId: number): Promise<void> {
      await db.update(orders).set({ companyId: toCompanyId }).where(eq(orders.companyId, fromCompanyId));
      await db
        .update(users)
        .set({
          companyId: toCompanyId,
          companyRole: sql`case when ${users.companyRole} = 'owner' then 'purchaser' else ${users.companyRole} end`,
        })
        .where(eq(users.companyId, fromCompanyId));
    },

    /** The legal entities, the last used first, then the oldest; the archived ones only when asked. */
    async legalEntities(companyId: number): Promise<LegalEntity[]> {
      const rows = await db
        .select(legalEntityColumns)
        .from(legalEntities)
        .innerJoin(companies, eq(companies.id, legalEntities.companyId))
        .where(and(eq(legalEntities.companyId, companyId), live))
        .orderBy(sql`${legalEntities.lastUsedAt} desc nulls last`, asc(legalEntities.createdAt), asc(legalEntities.id));
      return rows.map(toLegalEntity);
    },

    /** One of the company's live legal entities, or null (another company's is as good as none). */
    async findLegalEntity(companyId: number, id: string): Promise<LegalEntity | null> {
      const [row] = await db
        .select(legalEntityColumns)
        .from(legalEntities)
        .innerJoin(companies, eq(companies.id, legalEntities.companyId))
        .where(and(eq(legalEntities.id, id), eq(legalEntities.companyId, companyId), live));
      return row ? toLegalEntity(row) : null;
    },

    /** The live legal entity of the company with this ИНН and КПП (but `exceptId`), or null. */
    async findLegalEntityByCodes(
      companyId: number,
      inn: string,
      kpp: string | null,
      exceptId?: string,
    ): Promise<{ id: string } | null> {
      const [row] = await db
        .select({ id: legalEntities.id })
        .from(legalEntities)
        .where(
          and(
            eq(legalEntities.companyId, companyId),
            live,
            eq(legalEntities.inn, inn),
            sql`${legalEntities.kpp} is not distinct from ${kpp}`,
            exceptId ? ne(legalEntities.id, exceptId) : undefined,
          ),
        );
      return row ?? null;
    },

    async countLegalEntities(companyId: number): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(legalEntities)
        .where(and(eq(legalEntities.companyId, companyId), live));
      return row?.value ?? 0;
    },

    async insertLegalEntity(companyId: number, fields: LegalEntityRow): Promise<string> {
      const [row] = await db
        .insert(legalEntities)
        .values({ companyId, ...fields })
        .returning({ id: legalEntities.id });
      return row!.id;
    },

    async updateLegalEntity(id: string, fields: LegalEntityRow): Promise<void> {
      await db.update(legalEntities).set(fields).where(eq(legalEntities.id, id));
    },

    async archiveLegalEntity(id: string): Promise<void> {
      await db
        .update(legalEntities)
        .set({ archivedAt: sql`now()` })
        .where(eq(legalEntities.id, id));
    },

    async pendingInvitations(companyId: number, now: Date): Promise<Invitation[]> {
      const rows = await db
        .select(invitationColumns)
        .from(companyInvitations)
        .where(and(eq(companyInvitations.companyId, companyId), pending(now)))
        .orderBy(desc(companyInvitations.id));
      return rows.map(toInvitation);
    },

    /** Retires the company's earlier invitations to this address: the newest link is the one that works. */
    async revokeInvitationsTo(companyId: number, email: string, now: Date): Promise<void> {
      await db
        .update(companyInvitations)
        .set({ revokedAt: now })
        .where(and(eq(companyInvitations.companyId, companyId), eq(companyInvitations.email, email), pending(now)));
    },

    async insertInvitation(invitation: {
      companyId: number;
      email: string;
      role: CompanyRole;
      tokenHash: string;
      invitedBy: number;
      expiresAt: Date;
    }): Promise<Invitation> {
      const [row] = await db.insert(companyInvitations).values(invitation).returning(invitationColumns);
      return toInvitation(row!);
    },

    /** Revokes one waiting invitation of the company; false when there is none such. */
    async revokeInvitation(companyId: number, id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(companyInvitations)
        .set({ revokedAt: now })
        .where(and(eq(companyInvitations.id, id), eq(companyInvitations.companyId, companyId), pending(now)))
        .returning({ id: companyInvitations.id });
      return rows.length > 0;
    },

    /**
     * The invitation of this token's hash with its company's name, its row locked until the
     * transaction ends when `lock` (so it is accepted once); null for an unknown token.
     */
    async findInvitation(tokenHash: string, { lock }: { lock: boolean }) {
      const query = db
        .select({
          id: companyInvitations.id,
          companyId: companyInvitations.companyId,
          companyName: companies.name,
          email: companyInvitations.email,
          role: companyInvitations.role,
          expiresAt: companyInvitations.expiresAt,
          acceptedAt: companyInvitations.acceptedAt,
          revokedAt: companyInvitations.revokedAt,
        })
        .from(companyInvitations)
        .innerJoin(companies, eq(companies.id, companyInvitations.companyId))
        .where(eq(companyInvitations.tokenHash, tokenHash));
      const [row] = lock ? await query.for('update', { of: companyInvitations }) : await query;
      return row ?? null;
    },

    async markInvitationAccepted(id: number, now: Date): Promise<void> {
      await db.update(companyInvitations).set({ acceptedAt: now }).where(eq(companyInvitations.id, id));
    },

    /** The company's manager as its employees see them; null when none is assigned. */
    async managerContact(companyId: number): Promise<ManagerContact | null> {
      const [row] = await db
        .select(managerContactColumns)
        .from(companies)
        .innerJoin(users, eq(users.id, companies.managerId))
        .leftJoin(staffProfiles, eq(staffProfiles.userId, users.id))
        .where(eq(companies.id, companyId));
      return row ?? null;
    },

    /** The other companies with a live legal entity of this ИНН and КПП (the managers are warned of them). */
    async companiesWithCodes(companyId: number, inn: string, kpp: string | null) {
      return db
        .selectDistinct({ company_id: companies.id, company_name: companies.name })
        .from(legalEntities)
        .innerJoin(companies, eq(companies.id, legalEntities.companyId))
        .where(
          and(
            ne(legalEntities.companyId, companyId),
            live,
            eq(legalEntities.inn, inn),
            sql`${legalEntities.kpp} is not distinct from ${kpp}`,
          ),
        )
        .orderBy(asc(companies.id));
    },

    /** The managers' list: by part of a name, an ИНН or an employee's e-mail; `managerId` — only theirs. */
    async listForManagers({
      q,
      managerId,
      skip,
      limit,
    }: {
      q?: string;
      managerId?: number;
      skip: number;
      limit: number;
    }) {
      const text = q?.trim();
      const pattern = text ? `%${escapeLike(text)}%` : null;
      const where = and(
        managerId === undefined ? undefined : eq(companies.managerId, managerId),
        pattern
          ? or(
              ilike(companies.name, pattern),
              sql`exists (select 1 from ${legalEntities} le where le.company_id = ${companies}.id and (le.inn like ${pattern} or le.name ilike ${pattern}))`,
              sql`exists (select 1 from ${users} u where u.company_id = ${companies}.id and u.email ilike ${pattern})`,
            )
          : undefined,
      );
      const [rows, [counted]] = await Promise.all([
        db
          .select({
            id: companies.id,
            name: companies.name,
            inns: sql<string[]>`coalesce((select array_agg(le.inn order by le.created_at) from ${legalEntities} le
              where le.company_id = ${companies}.id and le.archived_at is null), '{}')`,
            owner_email: sql<string | null>`(select u.email from ${users} u where u.company_id = ${companies}.id
              and u.company_role = 'owner' order by u.id limit 1)`,
            members_count: sql<number>`(select count(*)::int from ${users} u where u.company_id = ${companies}.id)`,
            orders_count: sql<number>`(select count(*)::int from ${orders} o where o.company_id = ${companies}.id)`,
            blocked: sql<boolean>`${companies.blockedAt} is not null`,
            trusted: sql<boolean>`${companies.trustedAt} is not null`,
            manager: sql<{ id: number; name: string; email: string } | null>`(select json_build_object('id', mu.id,
              'name', coalesce(sp.name, mu.email), 'email', mu.email) from ${users} mu
              left join ${staffProfiles} sp on sp.user_id = mu.id where mu.id = ${companies}.manager_id)`,
            price_type: sql<
              string | null
            >`(select pt.name from ${priceTypes} pt where pt.id = ${companies}.price_type_id)`,
            created_at: companies.createdAt,
          })
          .from(companies)
          .where(where)
          .orderBy(desc(companies.id))
          .offset(skip)
          .limit(limit),
        db.select({ total: count() }).from(companies).where(where),
      ]);
      return {
        items: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
        total: counted?.total ?? 0,
      };
    },

    /** The company's newest orders as its page in the back office lists them. */
    async recentOrders(companyId: number, limit: number) {
      const rows = await db
        .select({
          id: orders.id,
          created_at: orders.createdAt,
          status: orders.status,
          total_price: orders.totalPrice,
          placed_by: orders.placedByName,
          legal_entity: orders.companyName,
        })
        .from(orders)
        .where(eq(orders.companyId, companyId))
        .orderBy(desc(orders.id))
        .limit(limit);
      return rows.map((row) => ({
        ...row,
        created_at: row.created_at.toISOString(),
        total_price: Number(row.total_price),
      }));
    },

    /** The journal's entries about the company, newest first. */
    async auditEntries(companyId: number, limit: number) {
      const rows = await db
        .select({
          at: auditLog.at,
          action: auditLog.action,
          by: users.email,
          before: auditLog.before,
          after: auditLog.after,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.byUserId))
        .where(and(eq(auditLog.entity, 'company'), eq(auditLog.entityId, String(companyId))))
        .orderBy(desc(auditLog.id))
        .limit(limit);
      return rows.map(({ at, action, by, before, after }) => ({
        at: at.toISOString(),
        action,
        by,
        details: { before, after },
      }));
    },

    /** Whether the account is a manager of the shop (only they are assigned to companies). */
    async isStaff(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.role, 'manager')));
      return row !== undefined;
    },

    /** Every manager with what buyers see of them and how many companies they look after. */
    async staff(ids?: number[]) {
      return db
        .select({
          id: users.id,
          email: users.email,
          name: sql<string>`coalesce(${staffProfiles.name}, ${users.email})`,
          contact_email: staffProfiles.contactEmail,
          phone: staffProfiles.phone,
          messenger_url: staffProfiles.messengerUrl,
          companies_count: sql<number>`(select count(*)::int from ${companies} c where c.manager_id = ${users}.id)`,
        })
        .from(users)
        .leftJoin(staffProfiles, eq(staffProfiles.userId, users.id))
        .where(and(eq(users.role, 'manager'), ids ? inArray(users.id, ids) : undefined))
        .orderBy(asc(users.id));
    },

    async saveStaffProfile(
      userId: number,
      profile: { name: string; contactEmail: string | null; phone: string | null; messengerUrl: string | null },
    ): Promise<void> {
      await db
        .insert(staffProfiles)
        .values({ userId, ...profile })
        .onConflictDoUpdate({ target: staffProfiles.userId, set: profile });
    },
  };
}

export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
