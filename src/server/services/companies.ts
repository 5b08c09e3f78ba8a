// The buyer companies' rules: who may do what in a company (src/shared/company.ts), the invitations
// and how an account joins, the roles, an employee's removal, the legal entities, and the managers'
// block, trust, assignment and merge. Each change runs in a transaction of its own, queued behind
// the company's other changes (CompaniesRepository.lockChanges), and is written to the journal.
import type {
  Company,
  Invitation,
  InvitationAccepted,
  InvitationPreview,
  LegalEntity,
  LegalEntityFields,
  LegalEntityPatch,
  AdminCompany,
  AdminCompanyPatch,
  StaffProfile,
  StaffProfileFields,
} from '../../shared/api';
import type { AuditAction } from '../../shared/audit';
import {
  COMPANY_MESSAGES,
  INVITATION_TTL_DAYS,
  mayEditLegalEntities,
  mayManageMembers,
  type CompanyRole,
} from '../../shared/company';
import { PAGE_PATHS } from '../../shared/paths';
import { legalEntityProblem } from '../../shared/requisites';
import type { Database, Queryable } from '../db/database';
import {
  CompanyItemNotFoundError,
  CompanyMembershipConflictError,
  CompanyRoleError,
  InvitationGoneError,
  LegalEntityConflictError,
  LegalEntityRefusedError,
  PriceTypeNotFoundError,
  PricingRefusedError,
} from '../domain/domain-errors';
import type { Member } from '../domain/company-member';
import { companyInvitationMail } from '../mail/company-invitation';
import type { ShopMail } from '../mail/letter';
import { createAuditRepository } from '../repositories/audit';
import { createCompaniesRepository, type LegalEntityRow } from '../repositories/companies';
import { createOutboxRepository } from '../repositories/outbox';
import { createPriceTypesRepository } from '../repositories/price-types';
import { createRefreshTokensRepository } from '../repositories/refresh-tokens';
import { createUsersRepository } from '../repositories/users';
import { hashRandomToken, newRandomToken } from './tokens';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The company's page in the back office lists this many of its newest orders and journal entries. */
const ADMIN_RECENT_ORDERS = 50;
const ADMIN_RECENT_AUDIT = 100;

const blankToNull = (value: string | null | undefined) => value?.trim() || null;

/** The legal entity's fields as written: trimmed, blanks as null, checked by the shared rules. */
function legalEntityRow(fields: LegalEntityFields): LegalEntityRow {
  const row: LegalEntityRow = {
    kind: fields.kind,
    name: fields.name.trim(),
    inn: fields.inn.trim(),
    kpp: blankToNull(fields.kpp),
    ogrn: blankToNull(fields.ogrn),
    address: fields.address.trim(),
    bankName: blankToNull(fields.bank_name),
    bik: blankToNull(fields.bik),
    account: blankToNull(fields.account),
    corrAccount: blankToNull(fields.corr_account),
  };
  const problem = legalEntityProblem({ ...row, corr_account: row.corrAccount });
  if (problem) throw new LegalEntityRefusedError(problem);
  return row;
}

/** A legal entity's fields as the API names them, for a change applied over them. */
const legalEntityFields = (entity: LegalEntity): LegalEntityFields => ({
  kind: entity.kind,
  name: entity.name,
  inn: entity.inn,
  kpp: entity.kpp,
  ogrn: entity.ogrn,
  address: entity.address,
  bank_name: entity.bank_name,
  bik: entity.bik,
  account: entity.account,
  corr_account: entity.corr_account,
});

function assertRole(allowed: boolean, message: string): void {
  if (!allowed) throw new CompanyRoleError(message);
}

const notFound = (message: string) => new CompanyItemNotFoundError(message);

/** The journal's entry of a change to a company, in the transaction that makes it. */
function recordCompanyChange(
  tx: Queryable,
  companyId: number,
  byUserId: number | null,
  action: AuditAction,
  before: unknown,
  after: unknown,
) {
  return createAuditRepository(tx).record({ byUserId, action, entity: 'company', entityId: companyId, before, after });
}

export interface CompanyServiceOptions {
  maxLegalEntities: number;
}

export function createCompanyService(db: Database, shop: ShopMail, { maxLegalEntities }: CompanyServiceOptions) {
  /** The company as its employee sees it: the invitations only for an owner. */
  async function view(tx: Queryable, member: Member): Promise<Company> {
    const companies = createCompaniesRepository(tx);
    const company = await companies.find(member.companyId);
    if (!company) throw notFound(COMPANY_MESSAGES.companyNotFound);
    const [members, legalEntities, manager, invitations] = await Promise.all([
      companies.members(member.companyId),
      companies.legalEntities(member.companyId),
      companies.managerContact(member.companyId),
      mayManageMembers(member.role) ? companies.pendingInvitations(member.companyId, new Date()) : [],
    ]);
    return {
      id: company.id,
      name: company.name,
      role: member.role,
      blocked: company.blocked,
      members,
      legal_entities: legalEntities,
      manager,
      invitations,
    };
  }

  /**
   * Runs a change of the company's members or legal entities after the others queued before it,
   * as `member`, whose role is read again under the lock (a role taken away a moment ago counts).
   */
  function changeAs<T>(member: Member, work: (tx: Queryable, current: Member) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      const companies = createCompaniesRepository(tx);
      await companies.lockChanges(member.companyId);
      const role = await companies.roleOf(member.companyId, member.userId);
      if (!role) throw notFound(COMPANY_MESSAGES.companyNotFound);
      return work(tx, { ...member, role });
    });
  }

  /** A company of one for an account leaving its company (removed by the owner), named by its address. */
  async function companyOfOne(tx: Queryable, userId: number): Promise<number> {
    const companies = createCompaniesRepository(tx);
    const email = (await companies.findEmail(userId))!;
    const companyId = await companies.insert(email);
    await companies.moveMember(userId, companyId, 'owner');
    return companyId;
  }

  /** The company's page in the back office. */
  async function adminView(tx: Queryable, companyId: number): Promise<AdminCompany> {
    const companies = createCompaniesRepository(tx);
    const company = await companies.find(companyId);
    if (!company) throw notFound(COMPANY_MESSAGES.companyNotFound);
    const [members, entities, invitations, orders, audit, manager] = await Promise.all([
      companies.members(companyId),
      companies.legalEntities(companyId),
      companies.pendingInvitations(companyId, new Date()),
      companies.recentOrders(companyId, ADMIN_RECENT_ORDERS),
      companies.auditEntries(companyId, ADMIN_RECENT_AUDIT),
      company.managerId === null ? [] : companies.staff([company.managerId]),
    ]);
    const legalEntities = await Promise.all(
      entities.map(async (entity) => ({
        ...entity,
        same_inn_kpp: await companies.companiesWithCodes(companyId, entity.inn, entity.kpp),
      })),
    );
    const [staff] = manager;
    return {
      id: company.id,
      name: company.name,
      created_at: company.createdAt.toISOString(),
      blocked: company.blocked,
      trusted: company.trusted,
      has_paid_order: company.hasPaidOrder,
      manager: staff ? { id: staff.id, name: staff.name, email: staff.email } : null,
      price_type: company.priceType,
      members,
      legal_entities: legalEntities,
      invitations,
      orders,
      audit,
    };
  }

  return {
    view: (member: Member) => view(db, member),

    rename(member: Member, name: string): Promise<Company> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayManageMembers(current.role), COMPANY_MESSAGES.notOwner);
        const companies = createCompaniesRepository(tx);
        const before = await companies.find(current.companyId);
        await companies.rename(current.companyId, name.trim());
        await recordCompanyChange(
          tx,
          current.companyId,
          current.userId,
          'company.rename',
          { name: before?.name },
          { name: name.trim() },
        );
        return view(tx, current);
      });
    },

    /**
     * The owner invites an address: a letter with a link valid INVITATION_TTL_DAYS, written to the
     * outbox with the invitation. Refused for an address of this company's employee, or of another
     * company's that has other employees (a one-person company joins by accepting).
     */
    invite(member: Member, email: string, role: CompanyRole): Promise<Invitation> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayManageMembers(current.role), COMPANY_MESSAGES.notOwner);
        const companies = createCompaniesRepository(tx);
        const account = await companies.findAccountByEmail(email);
        if (account?.companyId === current.companyId)
          throw new CompanyMembershipConflictError(COMPANY_MESSAGES.alreadyMember);
        if (account && account.colleagues > 0)
          throw new CompanyMembershipConflictError(COMPANY_MESSAGES.otherCompanyEmployee);
        const now = new Date();
        await companies.revokeInvitationsTo(current.companyId, email, now);
        const { token, hash } = newRandomToken();
        const invitation = await companies.insertInvitation({
          companyId: current.companyId,
          email,
          role,
          tokenHash: hash,
          invitedBy: current.userId,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
        });
        const company = (await companies.find(current.companyId))!;
        const inviter = await companies.findEmail(current.userId);
        await createOutboxRepository(tx).queue(
          companyInvitationMail(shop, {
            email,
            role,
            companyName: company.name,
            inviter: inviter ?? '',
            // The token rides in the fragment: browsers send it to no server and no Referer carries it.
            link: `${PAGE_PATHS.invitation}#${token}`,
            manager: await companies.managerContact(current.companyId),
          }),
        );
        await recordCompanyChange(tx, current.companyId, current.userId, 'company.invite', null, { email, role });
        return invitation;
      });
    },

    revokeInvitation(member: Member, id: number): Promise<void> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayManageMembers(current.role), COMPANY_MESSAGES.notOwner);
        if (!(await createCompaniesRepository(tx).revokeInvitation(current.companyId, id, new Date())))
          throw notFound(COMPANY_MESSAGES.invitationNotFound);
        await recordCompanyChange(tx, current.companyId, current.userId, 'company.invitation.revoke', { id }, null);
      });
    },

    /** What the invitation page shows before the invitee answers. */
    async preview(token: string): Promise<InvitationPreview> {
      const companies = createCompaniesRepository(db);
      const invitation = await companies.findInvitation(hashRandomToken(token), { lock: false });
      if (!invitation) throw notFound(COMPANY_MESSAGES.invitationNotFound);
      if (invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= new Date())
        throw new InvitationGoneError();
      return {
        email: invitation.email,
        role: invitation.role,
        company_name: invitation.companyName,
        expires_at: invitation.expiresAt.toISOString(),
        account_exists: (await companies.findAccountByEmail(invitation.email)) !== null,
      };
    },

    /**
     * Accepts an invitation, once: with `passwordHash`, a new account of the invited address is
     * made in the company; with `sessionUserId`, that account (of the invited address) joins, its
     * company of one, which never ordered, dissolving into this one with its addresses and legal
     * entities. Either way the address is confirmed (the letter reached it) and the invitee's own
     * consent to the processing of personal data is recorded.
     */
    accept(
      token: string,
      who: { passwordHash: string } | { sessionUserId: number },
    ): Promise<InvitationAccepted & { newAccount: boolean }> {
      return db.transaction(async (tx) => {
        const companies = createCompaniesRepository(tx);
        const invitation = await companies.findInvitation(hashRandomToken(token), { lock: true });
        if (!invitation) throw notFound(COMPANY_MESSAGES.invitationNotFound);
        const now = new Date();
        if (invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now)
          throw new InvitationGoneError();
        await companies.lockChanges(invitation.companyId);
        const users = createUsersRepository(tx);
        const account = await companies.findAccountByEmail(invitation.email);
        let userId: number;
        if ('passwordHash' in who) {
          if (account) throw new CompanyMembershipConflictError(COMPANY_MESSAGES.accountExists);
          const created = await users.insertMember(invitation.email, who.passwordHash, {
            companyId: invitation.companyId,
            role: invitation.role,
            now,
          });
          if (!created) throw new CompanyMembershipConflictError(COMPANY_MESSAGES.accountExists);
          userId = created.id;
        } else {
          if (!account || account.id !== who.sessionUserId)
            throw new CompanyMembershipConflictError(COMPANY_MESSAGES.wrongAccount);
          if (account.companyId === invitation.companyId)
            throw new CompanyMembershipConflictError(COMPANY_MESSAGES.alreadyMember);
          // The company of one is locked, then read again: an order placed for it meanwhile has
          // committed by now and is seen, and none can be placed until it is gone.
          await companies.lockRow(account.companyId);
          const leaving = await companies.findAccountByEmail(invitation.email);
          if (leaving?.companyId !== account.companyId)
            throw new CompanyMembershipConflictError(COMPANY_MESSAGES.wrongAccount);
          if (leaving.colleagues > 0) throw new CompanyMembershipConflictError(COMPANY_MESSAGES.otherCompanyEmployee);
          if (leaving.companyHasOrders) throw new CompanyMembershipConflictError(COMPANY_MESSAGES.ownOrdersNeedMerge);
          await companies.moveBelongings(account.companyId, invitation.companyId);
          await companies.moveMember(account.id, invitation.companyId, invitation.role);
          await companies.remove(account.companyId);
          await users.confirmAndConsent(account.id, now);
          userId = account.id;
        }
        await companies.markInvitationAccepted(invitation.id, now);
        await recordCompanyChange(tx, invitation.companyId, userId, 'company.invitation.accept', null, {
          email: invitation.email,
          role: invitation.role,
        });
        return {
          user_id: userId,
          email: invitation.email,
          company_id: invitation.companyId,
          role: invitation.role,
          newAccount: 'passwordHash' in who,
        };
      });
    },

    /** The owner changes an employee's role; the company always keeps an owner. */
    setRole(member: Member, userId: number, role: CompanyRole): Promise<Company> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayManageMembers(current.role), COMPANY_MESSAGES.notOwner);
        const companies = createCompaniesRepository(tx);
        const before = await companies.roleOf(current.companyId, userId);
        if (!before) throw notFound(COMPANY_MESSAGES.memberNotFound);
        if (before === role) return view(tx, current);
        if (before === 'owner' && (await companies.countMembers(current.companyId)).owners === 1)
          throw new CompanyMembershipConflictError(COMPANY_MESSAGES.lastOwner);
        await companies.setRole(userId, role);
        await recordCompanyChange(
          tx,
          current.companyId,
          current.userId,
          'company.member.role',
          { user_id: userId, role: before },
          { user_id: userId, role },
        );
        return view(tx, { ...current, role: userId === current.userId ? role : current.role });
      });
    },

    /**
     * The owner removes an employee: the account leaves for a company of one of its own, and every
     * session of it ends (the caller tells its process and the others: `revokedSessions`). Its
     * orders stay the company's, naming who placed them. The company always keeps an owner.
     */
    removeMember(member: Member, userId: number): Promise<{ company: Company; revokedSessions: string[] }> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayManageMembers(current.role), COMPANY_MESSAGES.notOwner);
        const companies = createCompaniesRepository(tx);
        const role = await companies.roleOf(current.companyId, userId);
        if (!role) throw notFound(COMPANY_MESSAGES.memberNotFound);
        if (role === 'owner' && (await companies.countMembers(current.companyId)).owners === 1)
          throw new CompanyMembershipConflictError(COMPANY_MESSAGES.lastOwner);
        const email = await companies.findEmail(userId);
        await companyOfOne(tx, userId);
        const revokedSessions = await createRefreshTokensRepository(tx).revokeSessionsOf(userId, new Date());
        await recordCompanyChange(
          tx,
          current.companyId,
          current.userId,
          'company.member.remove',
          { user_id: userId, email, role },
          null,
        );
        return { company: await view(tx, current), revokedSessions };
      });
    },

    /**
     * Deletes the employee's account (152-ФЗ): refused while they are the only owner of a company
     * with other employees; the company's only member takes the company with them — its personal
     * data erased, its orders and invoices kept as accounting records (402-ФЗ). Returns the
     * sessions ended.
     */
    deleteAccount(member: Member): Promise<string[]> {
      return changeAs(member, async (tx, current) => {
        const { members, owners } = await createCompaniesRepository(tx).countMembers(current.companyId);
        if (current.role === 'owner' && owners === 1 && members > 1)
          throw new CompanyMembershipConflictError(COMPANY_MESSAGES.ownerDeletionRefused);
        return createUsersRepository(tx).deleteAccount(current.userId, new Date(), { dissolveCompany: members === 1 });
      });
    },

    legalEntities: (member: Member) => createCompaniesRepository(db).legalEntities(member.companyId),

    /** A new legal entity (the owner and the accountant), at most `maxLegalEntities`, no two of one ИНН and КПП. */
    addLegalEntity(member: Member, fields: LegalEntityFields): Promise<LegalEntity> {
      const row = legalEntityRow(fields);
      return changeAs(member, async (tx, current) => {
        assertRole(mayEditLegalEntities(current.role), COMPANY_MESSAGES.legalEntitiesReadOnly);
        const companies = createCompaniesRepository(tx);
        if ((await companies.countLegalEntities(current.companyId)) >= maxLegalEntities)
          throw new LegalEntityConflictError(COMPANY_MESSAGES.legalEntitiesLimit(maxLegalEntities));
        if (await companies.findLegalEntityByCodes(current.companyId, row.inn, row.kpp))
          throw new LegalEntityConflictError(COMPANY_MESSAGES.legalEntityDuplicate);
        const id = await companies.insertLegalEntity(current.companyId, row);
        // The company's first entity is its default: the checkout offers it without asking.
        if (!(await companies.find(current.companyId))?.defaultLegalEntityId)
          await companies.setDefaultLegalEntity(current.companyId, id);
        await recordCompanyChange(tx, current.companyId, current.userId, 'legal_entity.create', null, { id, ...row });
        return (await companies.findLegalEntity(current.companyId, id))!;
      });
    },

    updateLegalEntity(member: Member, id: string, patch: LegalEntityPatch): Promise<LegalEntity> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayEditLegalEntities(current.role), COMPANY_MESSAGES.legalEntitiesReadOnly);
        const companies = createCompaniesRepository(tx);
        const before = await companies.findLegalEntity(current.companyId, id);
        if (!before) throw notFound(COMPANY_MESSAGES.legalEntityNotFound);
        const row = legalEntityRow({ ...legalEntityFields(before), ...patch });
        if (await companies.findLegalEntityByCodes(current.companyId, row.inn, row.kpp, id))
          throw new LegalEntityConflictError(COMPANY_MESSAGES.legalEntityDuplicate);
        await companies.updateLegalEntity(id, row);
        await recordCompanyChange(
          tx,
          current.companyId,
          current.userId,
          'legal_entity.update',
          legalEntityFields(before),
          { id, ...row },
        );
        return (await companies.findLegalEntity(current.companyId, id))!;
      });
    },

    /**
     * Deletes a legal entity from the company's lists: no order is made out to it again, but the
     * orders made out to it keep naming it (it is archived, not erased).
     */
    removeLegalEntity(member: Member, id: string): Promise<void> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayEditLegalEntities(current.role), COMPANY_MESSAGES.legalEntitiesReadOnly);
        const companies = createCompaniesRepository(tx);
        const before = await companies.findLegalEntity(current.companyId, id);
        if (!before) throw notFound(COMPANY_MESSAGES.legalEntityNotFound);
        await companies.archiveLegalEntity(id);
        if (before.is_default) await companies.setDefaultLegalEntity(current.companyId, null);
        await recordCompanyChange(
          tx,
          current.companyId,
          current.userId,
          'legal_entity.delete',
          legalEntityFields(before),
          null,
        );
      });
    },

    /** The company's default legal entity (the checkout's first choice), set by the owner or the accountant. */
    setDefaultLegalEntity(member: Member, id: string | null): Promise<void> {
      return changeAs(member, async (tx, current) => {
        const companies = createCompaniesRepository(tx);
        const company = (await companies.find(current.companyId))!;
        if (company.defaultLegalEntityId === id) return;
        assertRole(mayEditLegalEntities(current.role), COMPANY_MESSAGES.legalEntitiesReadOnly);
        if (id !== null && !(await companies.findLegalEntity(current.companyId, id)))
          throw notFound(COMPANY_MESSAGES.legalEntityNotFound);
        await companies.setDefaultLegalEntity(current.companyId, id);
      });
    },

    /**
     * SPEC §7's requisites typed in the profile or by an older client: the name, ИНН and КПП name
     * the company's default legal entity. The same ИНН and КПП as the default's rename it (when a
     * name is given); others choose the company's entity of those codes, or make one (its kind told
     * by the ИНН), so an entity once made out on orders never becomes another one.
     */
    saveDefaultLegalEntityCodes(
      member: Member,
      codes: { name: string | null; inn: string; kpp: string | null },
    ): Promise<string> {
      return changeAs(member, async (tx, current) => {
        assertRole(mayEditLegalEntities(current.role), COMPANY_MESSAGES.legalEntitiesReadOnly);
        const companies = createCompaniesRepository(tx);
        const same = await companies.findLegalEntityByCodes(current.companyId, codes.inn, codes.kpp);
        if (same) {
          const entity = (await companies.findLegalEntity(current.companyId, same.id))!;
          if (codes.name && codes.name !== entity.name) {
            const row = legalEntityRow({ ...legalEntityFields(entity), name: codes.name });
            await companies.updateLegalEntity(entity.id, row);
            await recordCompanyChange(
              tx,
              current.companyId,
              current.userId,
              'legal_entity.update',
              legalEntityFields(entity),
              { id: entity.id, ...row },
            );
          }
          await companies.setDefaultLegalEntity(current.companyId, entity.id);
          return entity.id;
        }
        const row = legalEntityRow({
          kind: codes.inn.length === 12 ? 'ip' : 'org',
          name: codes.name ?? `ИНН ${codes.inn}`,
          inn: codes.inn,
          kpp: codes.kpp,
          address: '',
        });
        if ((await companies.countLegalEntities(current.companyId)) >= maxLegalEntities)
          throw new LegalEntityConflictError(COMPANY_MESSAGES.legalEntitiesLimit(maxLegalEntities));
        const id = await companies.insertLegalEntity(current.companyId, row);
        await companies.setDefaultLegalEntity(current.companyId, id);
        await recordCompanyChange(tx, current.companyId, current.userId, 'legal_entity.create', null, { id, ...row });
        return id;
      });
    },

    /**
     * What an order is made out to: the company's legal entity named by `legalEntityId` (another
     * company's is unknown), or the details typed at the checkout, linked to the company's entity
     * of that ИНН and КПП when it has one (SPEC §7's fields keep working).
     */
    async orderRequisites(
      member: Member,
      typed: { legalEntityId?: string; name: string | null; inn: string | null; kpp: string | null },
    ): Promise<{
      legalEntityId: string | null;
      companyName: string | null;
      companyInn: string | null;
      companyKpp: string | null;
    }> {
      const companies = createCompaniesRepository(db);
      if (typed.legalEntityId) {
        const entity = await companies.findLegalEntity(member.companyId, typed.legalEntityId);
        if (!entity) throw notFound(COMPANY_MESSAGES.legalEntityNotFound);
        return { legalEntityId: entity.id, companyName: entity.name, companyInn: entity.inn, companyKpp: entity.kpp };
      }
      const entity = typed.inn ? await companies.findLegalEntityByCodes(member.companyId, typed.inn, typed.kpp) : null;
      return {
        legalEntityId: entity?.id ?? null,
        companyName: typed.name,
        companyInn: typed.inn,
        companyKpp: typed.kpp,
      };
    },

    /** The account's sign-in address: who placed an order, when no contact name was given. */
    emailOf: async (userId: number): Promise<string> => (await createCompaniesRepository(db).findEmail(userId)) ?? '',

    // The back office.

    listForManagers: (filter: { q?: string; managerId?: number; skip: number; limit: number }) =>
      createCompaniesRepository(db).listForManagers(filter),

    adminView: (companyId: number) => adminView(db, companyId),

    /** A manager renames, blocks or unblocks, trusts or distrusts a company, or assigns its manager. */
    updateByManager(companyId: number, patch: AdminCompanyPatch, byUserId: number): Promise<AdminCompany> {
      return db.transaction(async (tx) => {
        const companies = createCompaniesRepository(tx);
        await companies.lockChanges(companyId);
        const before = await companies.find(companyId);
        if (!before) throw notFound(COMPANY_MESSAGES.companyNotFound);
        const record = (action: AuditAction, from: unknown, to: unknown) =>
          recordCompanyChange(tx, companyId, byUserId, action, from, to);
        if (patch.name !== undefined && patch.name.trim() !== before.name) {
          await companies.rename(companyId, patch.name.trim());
          await record('company.rename', { name: before.name }, { name: patch.name.trim() });
        }
        if (patch.blocked !== undefined && patch.blocked !== before.blocked) {
          await companies.setBlocked(companyId, patch.blocked);
          await record(
            patch.blocked ? 'company.block' : 'company.unblock',
            { blocked: before.blocked },
            { blocked: patch.blocked },
          );
        }
        if (patch.trusted !== undefined && patch.trusted !== before.trusted) {
          await companies.setTrusted(companyId, patch.trusted);
          await record(
            patch.trusted ? 'company.trust' : 'company.distrust',
            { trusted: before.trusted },
            { trusted: patch.trusted },
          );
        }
        if (patch.manager_id !== undefined && patch.manager_id !== before.managerId) {
          if (patch.manager_id !== null && !(await companies.isStaff(patch.manager_id)))
            throw notFound(COMPANY_MESSAGES.managerNotFound);
          await companies.setManager(companyId, patch.manager_id);
          await record('company.manager', { manager_id: before.managerId }, { manager_id: patch.manager_id });
        }
        if (patch.price_type_id !== undefined && patch.price_type_id !== (before.priceType?.id ?? null)) {
          if (patch.price_type_id !== null) {
            // Locked: a type being deleted meanwhile either goes first (not found) or sees this company.
            const type = await createPriceTypesRepository(tx).lock(patch.price_type_id);
            if (!type) throw new PriceTypeNotFoundError();
            if (type.isRrp) throw new PricingRefusedError('Рекомендованная розничная цена не назначается компании');
          }
          await companies.setPriceType(companyId, patch.price_type_id);
          await record(
            'company.price_type',
            { price_type_id: before.priceType?.id ?? null },
            {
              price_type_id: patch.price_type_id,
            },
          );
        }
        return adminView(tx, companyId);
      });
    },

    /**
     * A manager merges `fromCompanyId` into `companyId`: its employees (its owners as purchasers),
     * orders, addresses and legal entities move over, and it is dissolved. For a purchaser who
     * ordered on their own before joining their employer's company.
     */
    merge(companyId: number, fromCompanyId: number, byUserId: number): Promise<AdminCompany> {
      if (companyId === fromCompanyId) throw new CompanyMembershipConflictError(COMPANY_MESSAGES.mergeSameCompany);
      return db.transaction(async (tx) => {
        const companies = createCompaniesRepository(tx);
        // Both locks in id order, so two merges of the same pair the other way round cannot deadlock.
        for (const id of [companyId, fromCompanyId].sort((a, b) => a - b)) await companies.lockChanges(id);
        const [target, source] = await Promise.all([companies.find(companyId), companies.find(fromCompanyId)]);
        if (!target || !source) throw notFound(COMPANY_MESSAGES.companyNotFound);
        // An order being placed for the merged company finishes first and moves with the rest.
        await companies.lockRow(fromCompanyId);
        const movedMembers = await companies.members(fromCompanyId);
        await companies.moveBelongings(fromCompanyId, companyId);
        await companies.moveOrdersAndMembers(fromCompanyId, companyId);
        await companies.remove(fromCompanyId);
        await recordCompanyChange(
          tx,
          companyId,
          byUserId,
          'company.merge',
          { company_id: fromCompanyId, name: source.name },
          { members: movedMembers.map((moved) => moved.email) },
        );
        return adminView(tx, companyId);
      });
    },

    staff: () => createCompaniesRepository(db).staff(),

    /** A manager's profile as buyers see it; null for an account that is no manager. */
    updateStaff(userId: number, fields: StaffProfileFields, byUserId: number): Promise<StaffProfile> {
      return db.transaction(async (tx) => {
        const companies = createCompaniesRepository(tx);
        const [before] = await companies.staff([userId]);
        if (!before) throw notFound(COMPANY_MESSAGES.managerNotFound);
        const profile = {
          name: fields.name?.trim() ?? before.name,
          contactEmail: fields.contact_email === undefined ? before.contact_email : blankToNull(fields.contact_email),
          phone: fields.phone === undefined ? before.phone : blankToNull(fields.phone),
          messengerUrl: fields.messenger_url === undefined ? before.messenger_url : blankToNull(fields.messenger_url),
        };
        await companies.saveStaffProfile(userId, profile);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'staff.profile',
          entity: 'user',
          entityId: userId,
          before,
          after: profile,
        });
        return (await companies.staff([userId]))[0]!;
      });
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
