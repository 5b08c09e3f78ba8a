// The buyer's company: a sign-up's company of one, the owner's invitations and how they are
// accepted, roles and removal, legal entities, and who may see and do what with the company's
// orders, addresses and invoices.
import { and, desc, eq } from 'drizzle-orm';
import type {
  Company,
  InvitationAccepted,
  InvitationPreview,
  LegalEntity,
  OrderSummary,
  Product,
} from '../../../shared/api';
import { DELETED_PERSONAL_DATA } from '../../../shared/account';
import { COMPANY_MESSAGES } from '../../../shared/company';
import { loadConfig } from '../../config';
import { companyInvitations, mailOutbox, users } from '../../db/schema';
import { hashRandomToken } from '../../services/tokens';
import { newManager } from '../../../../test/server/helpers/back-office';
import { pdfText, SUPPLIER } from '../../../../test/server/helpers/invoices';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import {
  allProducts,
  bearer,
  createTestApp,
  json,
  logIn,
  memberOf,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const ORGANISATION = {
  kind: 'org',
  name: 'ООО «Ромашка»',
  inn: '7707083893',
  kpp: '770701001',
  address: 'г. Москва, ул. Тверская, д. 1',
} as const;
const SOLE_TRADER = {
  kind: 'ip',
  name: 'ИП Петров П. П.',
  inn: '500100732259',
  kpp: null,
  address: 'г. Тула',
} as const;

// The test app's own lifted limits (many orders per company), with the cap under test set.
const LIFTED_LIMITS = {
  ...loadConfig({}).buyerLimits,
  maxUnpaidOrders: 10_000,
  maxUnpaidOrdersTrusted: 10_000,
  maxOrdersPerDay: 10_000,
  unprovenStockSharePercent: 100,
};

let shop: TestApp;
let manager: Shopper;
let product: Product;

beforeAll(async () => {
  shop = await createTestApp({ buyerLimits: { ...LIFTED_LIMITS, maxLegalEntities: 3 } });
  manager = await newManager(shop.app);
  await shop.app.repositories.supplierRequisites.save(SUPPLIER, manager.id);
  product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((v) => v.stock > 0))!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, headers: Headers, payload?: object) =>
  shop.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const companyOf = async (shopper: Shopper) => json<Company>(await call('GET', '/api/v1/company', shopper.headers));
const invite = (owner: Shopper, email: string, role: string) =>
  call('POST', '/api/v1/company/invitations', owner.headers, { email, role });

/** The token of the newest invitation letter to `email`, read from the outbox as the letter carries it. */
async function tokenSentTo(email: string): Promise<string> {
  const [letter] = await shop.app.database.db
    .select({ text: mailOutbox.text, html: mailOutbox.html })
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, email))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const token = /\/invite#([\w-]+)/.exec(letter!.text)?.[1];
  expect(token).toBeDefined();
  expect(letter!.html).toContain(`/invite#${token}`);
  return token!;
}

const accept = (payload: object, headers: Headers = {}) =>
  call('POST', '/api/v1/company/invitations/accept', headers, payload);

/** An owner's new employee in `role`, invited and accepted with a password, signed in. */
async function employeeOf(owner: Shopper, role: string): Promise<Shopper> {
  const email = `employee-${Math.random().toString(36).slice(2)}@example.com`;
  expect((await invite(owner, email, role)).statusCode).toBe(201);
  const accepted = await accept({ token: await tokenSentTo(email), password: TEST_PASSWORD, consent: true });
  expect(accepted.statusCode).toBe(200);
  const login = await logIn(shop.app, email, TEST_PASSWORD);
  const token = json<{ access_token: string }>(login).access_token;
  return { id: json<InvitationAccepted>(accepted).user_id, email, token, headers: bearer(token) };
}

async function addEntity(shopper: Shopper, fields: object = ORGANISATION) {
  return call('POST', '/api/v1/company/legal-entities', shopper.headers, fields);
}

async function placeOrder(shopper: Shopper, fields: object = {}) {
  const variant = product.variants.find((candidate) => candidate.stock > 0)!;
  await setVariant(shop.app, variant.id, { stock: 1000 });
  return call('POST', '/api/v1/order/', shopper.headers, {
    user_id: shopper.id,
    address: 'г. Тверь, ул. Советская, д. 3',
    items: [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
    ...fields,
  });
}

describe('a sign-up is the owner of a company of one', () => {
  it('GET /company names the caller’s role, the members and no manager yet', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    expect(await companyOf(owner)).toEqual({
      id: expect.any(Number),
      name: owner.email,
      role: 'owner',
      blocked: false,
      members: [{ user_id: owner.id, email: owner.email, role: 'owner', name: null }],
      legal_entities: [],
      manager: null,
      invitations: [],
    });
    const user = json<{ company: unknown }>(await call('GET', '/api/v1/auth/user', owner.headers));
    expect(user.company).toEqual({ id: expect.any(Number), name: owner.email, role: 'owner', blocked: false });
  });

  it('without a session → 401', async () => {
    expect((await call('GET', '/api/v1/company', {})).statusCode).toBe(401);
  });
});

describe('invitations', () => {
  it('the letter carries the token in the link’s fragment only; the database keeps its hash', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const email = 'new-purchaser@example.com';
    const response = await invite(owner, ' New-Purchaser@Example.com ', 'purchaser');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email, role: 'purchaser' });
    const token = await tokenSentTo(email);
    const [row] = await shop.app.database.db
      .select({ tokenHash: companyInvitations.tokenHash, expiresAt: companyInvitations.expiresAt })
      .from(companyInvitations)
      .where(eq(companyInvitations.email, email));
    expect(row!.tokenHash).toBe(hashRandomToken(token));
    expect(row!.tokenHash).not.toContain(token);
    const days = (row!.expiresAt.getTime() - Date.now()) / (24 * 60 * 60 * 1000);
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect((await companyOf(owner)).invitations).toEqual([expect.objectContaining({ email, role: 'purchaser' })]);
  });

  it('a new address accepts with a password: a member, confirmed, consenting, signed in; the link then → 410', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const email = `accountant-${Date.now()}@example.com`;
    await invite(owner, email, 'accountant');
    const token = await tokenSentTo(email);
    const preview = await call('POST', '/api/v1/company/invitations/preview', {}, { token });
    expect(json<InvitationPreview>(preview)).toEqual({
      email,
      role: 'accountant',
      company_name: owner.email,
      expires_at: expect.any(String),
      account_exists: false,
    });
    expect((await accept({ token, password: TEST_PASSWORD, consent: false })).statusCode).toBe(422);
    expect((await accept({ token, consent: true })).json()).toEqual({ detail: COMPANY_MESSAGES.passwordNeeded });
    const accepted = await accept({ token, password: TEST_PASSWORD, consent: true });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ email, role: 'accountant' });
    const [account] = await shop.app.database.db
      .select({ confirmed: users.emailConfirmedAt, consent: users.personalDataConsentAt })
      .from(users)
      .where(eq(users.email, email));
    expect(account!.confirmed).not.toBeNull();
    expect(account!.consent).not.toBeNull();
    expect((await logIn(shop.app, email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await companyOf(owner)).members.map((member) => [member.email, member.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'accountant'],
    ]);
    const again = await accept({ token, password: TEST_PASSWORD, consent: true });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ detail: COMPANY_MESSAGES.invitationGone });
    expect((await call('POST', '/api/v1/company/invitations/preview', {}, { token })).statusCode).toBe(410);
  });

  it('an expired invitation → 410; a revoked one → 410; an unknown token → 404', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    await invite(owner, 'late@example.com', 'purchaser');
    const late = await tokenSentTo('late@example.com');
    await shop.app.database.db
      .update(companyInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(companyInvitations.tokenHash, hashRandomToken(late)));
    expect((await accept({ token: late, password: TEST_PASSWORD, consent: true })).statusCode).toBe(410);

    await invite(owner, 'revoked@example.com', 'purchaser');
    const revoked = await tokenSentTo('revoked@example.com');
    const [pending] = (await companyOf(owner)).invitations;
    expect((await call('DELETE', `/api/v1/company/invitations/${pending!.id}`, owner.headers)).statusCode).toBe(204);
    expect((await accept({ token: revoked, password: TEST_PASSWORD, consent: true })).statusCode).toBe(410);
    expect((await accept({ token: 'no-such-token', password: TEST_PASSWORD, consent: true })).statusCode).toBe(404);
    expect(await shop.app.repositories.companies.findAccountByEmail('revoked@example.com')).toBeNull();
  });

  it('one address gets at most five invitations a day, whoever sends them: the sixth → 429, nothing sent', async () => {
    const owners = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const email = `popular-${Date.now()}@example.com`;
    for (let sent = 0; sent < 5; sent += 1)
      expect((await invite(owners[sent % 2]!, email, 'purchaser')).statusCode).toBe(201);
    const refused = await invite(owners[0], email, 'purchaser');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const letters = await shop.app.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email));
    expect(letters).toHaveLength(5);
  });

  it('an address of another company’s employee → 409; of this company’s → 409; nothing sent', async () => {
    const [owner, other] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const colleague = await employeeOf(other, 'purchaser');
    const outbox = async () => (await shop.app.database.db.select({ id: mailOutbox.id }).from(mailOutbox)).length;
    const before = await outbox();
    const foreign = await invite(owner, colleague.email, 'purchaser');
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json()).toEqual({ detail: COMPANY_MESSAGES.otherCompanyEmployee });
    const own = await invite(other, colleague.email, 'accountant');
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({ detail: COMPANY_MESSAGES.alreadyMember });
    expect(await outbox()).toBe(before);
  });

  it('an existing account without orders joins with its session: its company of one dissolves into the new one', async () => {
    const [owner, loner] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const lonerCompany = (await memberOf(shop.app, loner.id)).companyId;
    expect((await addEntity(loner, SOLE_TRADER)).statusCode).toBe(201);
    await shop.app.services.addresses.create(await memberOf(shop.app, loner.id), {
      country: 'Россия',
      city: 'Тула',
      street: 'Ленина',
      home_number: '2',
      apartment_number: null,
    });
    expect((await invite(owner, loner.email, 'purchaser')).statusCode).toBe(201);
    const token = await tokenSentTo(loner.email);
    expect(
      json<InvitationPreview>(await call('POST', '/api/v1/company/invitations/preview', {}, { token })),
    ).toMatchObject({
      account_exists: true,
    });
    // Without the session, the address's account cannot be made again.
    expect((await accept({ token, password: TEST_PASSWORD, consent: true })).json()).toEqual({
      detail: COMPANY_MESSAGES.accountExists,
    });
    // Another account's session is not the invitee's.
    expect((await accept({ token, consent: true }, owner.headers)).json()).toEqual({
      detail: COMPANY_MESSAGES.wrongAccount,
    });
    const accepted = await accept({ token, consent: true }, loner.headers);
    expect(accepted.statusCode).toBe(200);
    const company = await companyOf(loner);
    expect(company.role).toBe('purchaser');
    expect(company.members.map((member) => member.email)).toEqual([owner.email, loner.email]);
    expect(company.legal_entities.map((entity) => entity.inn)).toEqual([SOLE_TRADER.inn]);
    const addresses = json<{ city: string }[]>(await call('GET', `/api/v1/address/${owner.id}`, owner.headers));
    expect(addresses.map((address) => address.city)).toEqual(['Тула']);
    expect(await shop.app.repositories.companies.find(lonerCompany)).toBeNull();
  });

  it('an account whose company has orders is not moved: 409 says the manager merges, and the merge moves everything', async () => {
    const [owner, trader] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    // Both companies have the same ООО: the merged one's order names the one that stays.
    const kept = json<LegalEntity>(await addEntity(owner));
    const twin = json<LegalEntity>(await addEntity(trader));
    const ordered = json<OrderSummary>(await placeOrder(trader, { legal_entity_id: twin.id }));
    expect((await invite(owner, trader.email, 'purchaser')).statusCode).toBe(201);
    const refused = await accept({ token: await tokenSentTo(trader.email), consent: true }, trader.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.ownOrdersNeedMerge });
    expect((await companyOf(trader)).role).toBe('owner');

    const target = (await memberOf(shop.app, owner.id)).companyId;
    const source = (await memberOf(shop.app, trader.id)).companyId;
    const merged = await call('POST', `/api/v1/admin/companies/${target}/merge`, manager.headers, {
      from_company_id: source,
    });
    expect(merged.statusCode).toBe(200);
    expect(json<{ members: { email: string; role: string }[] }>(merged).members).toEqual([
      expect.objectContaining({ email: owner.email, role: 'owner' }),
      expect.objectContaining({ email: trader.email, role: 'purchaser' }),
    ]);
    const list = json<OrderSummary[]>(await call('GET', `/api/v1/order/${owner.id}`, owner.headers));
    expect(list.map((order) => [order.id, order.legal_entity_id])).toEqual([[ordered.id, kept.id]]);
    expect((await companyOf(owner)).legal_entities.map((entity) => entity.id)).toEqual([kept.id]);
    expect(
      (await call('POST', `/api/v1/admin/companies/${target}/merge`, manager.headers, { from_company_id: target }))
        .statusCode,
    ).toBe(409);
  });
});

describe('roles and removal', () => {
  it('only the owner manages employees: a purchaser → 403 with the Russian detail', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const refused = await invite(purchaser, 'someone@example.com', 'purchaser');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.notOwner });
    expect(
      (await call('PATCH', `/api/v1/company/members/${owner.id}`, purchaser.headers, { role: 'accountant' }))
        .statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/api/v1/company/members/${owner.id}`, purchaser.headers)).statusCode).toBe(403);
    expect((await companyOf(purchaser)).invitations).toEqual([]);
  });

  it('a company keeps an owner: the last one is neither demoted nor removed (409); with a second owner both may be', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const second = await employeeOf(owner, 'purchaser');
    const demote = await call('PATCH', `/api/v1/company/members/${owner.id}`, owner.headers, { role: 'purchaser' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ detail: COMPANY_MESSAGES.lastOwner });
    expect((await call('DELETE', `/api/v1/company/members/${owner.id}`, owner.headers)).statusCode).toBe(409);
    const promoted = await call('PATCH', `/api/v1/company/members/${second.id}`, owner.headers, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    const stepDown = await call('PATCH', `/api/v1/company/members/${owner.id}`, owner.headers, { role: 'purchaser' });
    expect(json<Company>(stepDown).role).toBe('purchaser');
    expect((await companyOf(second)).members.map((member) => member.role)).toEqual(['owner', 'purchaser']);
  });

  it('another company’s employee is unknown: 404', async () => {
    const [owner, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const response = await call('PATCH', `/api/v1/company/members/${stranger.id}`, owner.headers, { role: 'owner' });
    expect(response.statusCode).toBe(404);
    expect((await companyOf(stranger)).role).toBe('owner');
  });

  it('a removed employee’s sessions end at once; their orders stay the company’s, naming them', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const placed = json<OrderSummary>(await placeOrder(purchaser, { contact_name: 'Мария Закупщица' }));
    expect(placed.placed_by).toEqual({ user_id: purchaser.id, name: 'Мария Закупщица' });
    const removed = await call('DELETE', `/api/v1/company/members/${purchaser.id}`, owner.headers);
    expect(removed.statusCode).toBe(200);
    expect(json<Company>(removed).members.map((member) => member.email)).toEqual([owner.email]);
    expect((await call('GET', '/api/v1/company', purchaser.headers)).statusCode).toBe(401);
    const list = json<OrderSummary[]>(await call('GET', `/api/v1/order/${owner.id}`, owner.headers));
    expect(list).toEqual([
      expect.objectContaining({ id: placed.id, placed_by: { user_id: purchaser.id, name: 'Мария Закупщица' } }),
    ]);
    // The account itself goes on, as a company of one: signing in again shows none of the old company's orders.
    const again = json<{ access_token: string }>(await logIn(shop.app, purchaser.email, TEST_PASSWORD)).access_token;
    expect(json<Company>(await call('GET', '/api/v1/company', bearer(again))).role).toBe('owner');
    expect(json<OrderSummary[]>(await call('GET', `/api/v1/order/${purchaser.id}`, bearer(again)))).toEqual([]);
  });
});

describe('legal entities', () => {
  it('the kind and the ИНН must agree; an organisation needs a КПП, an ИП has none (422, nothing stored)', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const cases: [object, string][] = [
      [{ ...SOLE_TRADER, inn: ORGANISATION.inn }, COMPANY_MESSAGES.innKindMismatch],
      [{ ...ORGANISATION, inn: SOLE_TRADER.inn }, COMPANY_MESSAGES.innKindMismatch],
      [{ ...ORGANISATION, kpp: null }, COMPANY_MESSAGES.kppRequired],
      [{ ...SOLE_TRADER, kpp: '770701001' }, COMPANY_MESSAGES.kppForIp],
      [{ ...ORGANISATION, inn: '7707083894' }, 'Некорректный ИНН: не сходится контрольное число.'],
      [{ ...ORGANISATION, account: '40702810900000000001' }, COMPANY_MESSAGES.bikNeeded],
    ];
    for (const [fields, detail] of cases) {
      const response = await addEntity(owner, fields);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail });
    }
    expect((await companyOf(owner)).legal_entities).toEqual([]);
  });

  it('the first is the default; a duplicate ИНН and КПП → 409; at most MAX_LEGAL_ENTITIES (3 here) → 409', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const first = json<LegalEntity>(await addEntity(owner));
    expect(first).toMatchObject({ ...ORGANISATION, is_default: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await addEntity(owner)).json()).toEqual({ detail: COMPANY_MESSAGES.legalEntityDuplicate });
    // A branch: the same ИНН with another КПП is another entity.
    expect((await addEntity(owner, { ...ORGANISATION, kpp: '771001001', name: 'Филиал' })).statusCode).toBe(201);
    expect((await addEntity(owner, SOLE_TRADER)).statusCode).toBe(201);
    const over = await addEntity(owner, { ...ORGANISATION, kpp: '772001001' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ detail: COMPANY_MESSAGES.legalEntitiesLimit(3) });
  });

  it('a purchaser reads them but may not change them (403); the accountant may', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const accountant = await employeeOf(owner, 'accountant');
    const refused = await addEntity(purchaser);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.legalEntitiesReadOnly });
    const added = json<LegalEntity>(await addEntity(accountant));
    const changed = await call('PATCH', `/api/v1/company/legal-entities/${added.id}`, accountant.headers, {
      bik: '044525225',
      account: '40702810938000000002',
    });
    expect(changed.statusCode).toBe(422); // the account's key does not match the БИК
    expect(
      (
        await call('PATCH', `/api/v1/company/legal-entities/${added.id}`, accountant.headers, {
          bik: '044525225',
          account: '40702810938000000001',
        })
      ).statusCode,
    ).toBe(200);
    const renamed = await call('PATCH', `/api/v1/company/legal-entities/${added.id}`, accountant.headers, {
      name: 'ООО «Ромашка-2»',
    });
    expect(json<LegalEntity>(renamed)).toMatchObject({ id: added.id, name: 'ООО «Ромашка-2»', inn: ORGANISATION.inn });
    expect(json<LegalEntity[]>(await call('GET', '/api/v1/company/legal-entities', purchaser.headers))).toEqual([
      expect.objectContaining({ id: added.id, name: 'ООО «Ромашка-2»' }),
    ]);
  });

  it('another company’s legal entity is unknown (404) to change, delete or order for', async () => {
    const [owner, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const theirs = json<LegalEntity>(await addEntity(stranger));
    expect(
      (await call('PATCH', `/api/v1/company/legal-entities/${theirs.id}`, owner.headers, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/v1/company/legal-entities/${theirs.id}`, owner.headers)).statusCode).toBe(404);
    const ordered = await placeOrder(owner, { legal_entity_id: theirs.id });
    expect(ordered.statusCode).toBe(404);
    expect(ordered.json()).toEqual({ detail: COMPANY_MESSAGES.legalEntityNotFound });
    expect((await companyOf(stranger)).legal_entities).toEqual([expect.objectContaining({ name: ORGANISATION.name })]);
  });

  it('a deleted one leaves the lists, but the orders made out to it keep naming it', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const entity = json<LegalEntity>(await addEntity(owner));
    const order = json<OrderSummary>(await placeOrder(owner, { legal_entity_id: entity.id }));
    expect((await call('DELETE', `/api/v1/company/legal-entities/${entity.id}`, owner.headers)).statusCode).toBe(204);
    expect((await companyOf(owner)).legal_entities).toEqual([]);
    const detail = await call('GET', `/api/v1/order/${owner.id}/${order.id}`, owner.headers);
    expect(detail.json()).toMatchObject({ legal_entity_id: entity.id, company_inn: ORGANISATION.inn });
    expect((await placeOrder(owner, { legal_entity_id: entity.id })).statusCode).toBe(404);
  });
});

describe('the company’s orders', () => {
  it('a purchaser orders for the ООО: the order prints its details, and the owner and the accountant see it', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const accountant = await employeeOf(owner, 'accountant');
    const ooo = json<LegalEntity>(await addEntity(owner));
    await addEntity(owner, SOLE_TRADER);
    const placed = await placeOrder(purchaser, {
      legal_entity_id: ooo.id,
      // Typed fields give way to the entity's.
      company_name: 'что-то другое',
      company_inn: SOLE_TRADER.inn,
    });
    expect(placed.statusCode).toBe(201);
    const order = json<OrderSummary>(placed);
    expect(order.legal_entity_id).toBe(ooo.id);
    for (const employee of [owner, accountant]) {
      const detail = await call('GET', `/api/v1/order/${employee.id}/${order.id}`, employee.headers);
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({
        company_name: ORGANISATION.name,
        company_inn: ORGANISATION.inn,
        company_kpp: ORGANISATION.kpp,
        placed_by: { user_id: purchaser.id, name: purchaser.email },
      });
    }
    // The checkout offers the last used first.
    expect((await companyOf(owner)).legal_entities.map((entity) => entity.id)[0]).toBe(ooo.id);
  });

  it('the accountant places and cancels nothing (403), yet downloads the invoice, made out to the legal entity', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const accountant = await employeeOf(owner, 'accountant');
    const refused = await placeOrder(accountant);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.accountantCannotOrder });
    const ooo = json<LegalEntity>(await addEntity(owner));
    const order = json<OrderSummary>(await placeOrder(owner, { legal_entity_id: ooo.id }));
    expect((await call('DELETE', `/api/v1/order/${order.id}`, accountant.headers)).statusCode).toBe(403);
    expect((await call('POST', `/api/v1/admin/orders/${order.id}/invoice`, manager.headers)).statusCode).toBe(201);
    const pdf = await call('GET', `/api/v1/order/${order.id}/invoice`, accountant.headers);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // «Покупатель»: the entity's name, ИНН, КПП and registered address (not the delivery address).
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(
      `${ORGANISATION.name}, ИНН ${ORGANISATION.inn}, КПП ${ORGANISATION.kpp}, ${ORGANISATION.address}`,
    );
  });

  it('another company’s order, invoice and status are unknown: 404', async () => {
    const [owner, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const order = json<OrderSummary>(await placeOrder(owner));
    await call('POST', `/api/v1/admin/orders/${order.id}/invoice`, manager.headers);
    expect((await call('GET', `/api/v1/order/${stranger.id}/${order.id}`, stranger.headers)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/order/${order.id}/invoice`, stranger.headers)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/order/${order.id}/status`, stranger.headers)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/order/${order.id}`, stranger.headers)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/order/${stranger.id}/${order.id}/export`, stranger.headers)).statusCode).toBe(
      404,
    );
  });

  it('the list filters by status, legal entity and who placed it, a page at a time, the total in X-Total-Count', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const ooo = json<LegalEntity>(await addEntity(owner));
    const first = json<OrderSummary>(await placeOrder(owner, { legal_entity_id: ooo.id }));
    const second = json<OrderSummary>(await placeOrder(purchaser));
    const third = json<OrderSummary>(await placeOrder(purchaser, { legal_entity_id: ooo.id }));
    await call('DELETE', `/api/v1/order/${second.id}`, purchaser.headers);
    const list = (query: Record<string, string>) =>
      shop.app.inject({ method: 'GET', url: `/api/v1/order/${owner.id}`, headers: owner.headers, query });
    const ids = async (query: Record<string, string>) => {
      const response = await list(query);
      expect(response.statusCode).toBe(200);
      return { ids: json<OrderSummary[]>(response).map((order) => order.id), total: response.headers['x-total-count'] };
    };
    expect(await ids({})).toEqual({ ids: [third.id, second.id, first.id], total: '3' });
    expect(await ids({ placed_by: String(purchaser.id) })).toEqual({ ids: [third.id, second.id], total: '2' });
    expect(await ids({ legal_entity_id: ooo.id })).toEqual({ ids: [third.id, first.id], total: '2' });
    expect(await ids({ status: 'Отменён' })).toEqual({ ids: [second.id], total: '1' });
    expect(await ids({ skip: '1', limit: '1' })).toEqual({ ids: [second.id], total: '3' });
    expect((await list({ legal_entity_id: 'not-a-uuid' })).statusCode).toBe(422);
  });

  it(
    'the limits are the company’s: MAX_UNPAID_ORDERS counts every employee’s unpaid orders',
    async () => {
      const limited = await createTestApp({ buyerLimits: { ...LIFTED_LIMITS, maxUnpaidOrders: 1 } });
      try {
        const previous = shop;
        shop = limited;
        const [owner] = (await quickShoppers(limited.app, 1)) as [Shopper];
        const purchaser = await employeeOf(owner, 'purchaser');
        product = (await allProducts(limited.app)).find((candidate) => candidate.variants.some((v) => v.stock > 0))!;
        expect((await placeOrder(owner)).statusCode).toBe(201);
        const refused = await placeOrder(purchaser);
        expect(refused.statusCode).toBe(409);
        expect(json<{ detail: string }>(refused).detail).toMatch(/неоплаченный заказ/);
        shop = previous;
        product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((v) => v.stock > 0))!;
      } finally {
        await limited.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});

describe('the back office', () => {
  it('finds companies by ИНН and by an employee’s e-mail, and warns of the same ИНН and КПП elsewhere', async () => {
    const [first, second] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    await addEntity(first, { ...ORGANISATION, inn: '7736207543', kpp: '773601001' });
    await addEntity(second, { ...ORGANISATION, inn: '7736207543', kpp: '773601001', name: 'ООО «Двойник»' });
    const found = await call('GET', '/api/v1/admin/companies?q=7736207543', manager.headers);
    expect(json<{ total: number }>(found).total).toBe(2);
    const byEmail = json<{ items: { id: number }[] }>(
      await call('GET', `/api/v1/admin/companies?q=${encodeURIComponent(second.email)}`, manager.headers),
    );
    const secondCompany = (await memberOf(shop.app, second.id)).companyId;
    expect(byEmail.items.map((item) => item.id)).toEqual([secondCompany]);
    const page = json<{ legal_entities: { same_inn_kpp: { company_id: number }[] }[] }>(
      await call('GET', `/api/v1/admin/companies/${(await memberOf(shop.app, first.id)).companyId}`, manager.headers),
    );
    expect(page.legal_entities[0]!.same_inn_kpp).toEqual([expect.objectContaining({ company_id: secondCompany })]);
    expect((await call('GET', '/api/v1/admin/companies/2000000000', manager.headers)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/admin/companies', first.headers)).statusCode).toBe(403);
  });

  it('a blocked company signs in and reads its orders but orders nothing, told why; unblocked, it orders again', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const companyId = (await memberOf(shop.app, owner.id)).companyId;
    const earlier = json<OrderSummary>(await placeOrder(owner));
    const blocked = await call('PATCH', `/api/v1/admin/companies/${companyId}`, manager.headers, { blocked: true });
    expect(json<{ blocked: boolean; audit: { action: string }[] }>(blocked)).toMatchObject({
      blocked: true,
      audit: [expect.objectContaining({ action: 'company.block' })],
    });
    expect((await companyOf(owner)).blocked).toBe(true);
    const refused = await placeOrder(owner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.companyBlocked });
    expect(json<OrderSummary[]>(await call('GET', `/api/v1/order/${owner.id}`, owner.headers))[0]!.id).toBe(earlier.id);
    await call('PATCH', `/api/v1/admin/companies/${companyId}`, manager.headers, { blocked: false });
    expect((await placeOrder(owner)).statusCode).toBe(201);
  });

  it('a personal manager: named to the buyer, told of the company’s new orders alone, and «мои клиенты» finds them', async () => {
    const [owner, other] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const personal = await newManager(shop.app);
    const companyId = (await memberOf(shop.app, owner.id)).companyId;
    expect(
      (await call('PATCH', `/api/v1/admin/companies/${companyId}`, manager.headers, { manager_id: other.id }))
        .statusCode,
    ).toBe(404);
    const profile = await call('PATCH', `/api/v1/admin/staff/${personal.id}`, manager.headers, {
      name: 'Ольга Смирнова',
      phone: '+7 900 123-45-67',
      contact_email: 'olga@shop.example',
      messenger_url: 'https://t.me/olga_shop',
    });
    expect(profile.statusCode).toBe(200);
    await call('PATCH', `/api/v1/admin/companies/${companyId}`, manager.headers, { manager_id: personal.id });
    expect((await companyOf(owner)).manager).toEqual({
      name: 'Ольга Смирнова',
      email: 'olga@shop.example',
      phone: '+7 900 123-45-67',
      messenger_url: 'https://t.me/olga_shop',
    });
    const order = json<OrderSummary>(await placeOrder(owner));
    const letters = await shop.app.database.db
      .select({ recipient: mailOutbox.recipient, text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.sheetOrderId, order.id));
    const recipients = letters.map((letter) => letter.recipient);
    expect(recipients).toContain('olga@shop.example');
    expect(recipients).toContain(owner.email);
    expect(recipients).not.toContain(manager.email);
    expect(letters.find((letter) => letter.recipient === owner.email)!.text).toContain('Ольга Смирнова');
    // The account's own letters name the manager too: a password reset's.
    expect((await call('POST', '/api/v1/auth/password-reset', {}, { email: owner.email })).statusCode).toBeLessThan(
      300,
    );
    const [reset] = await shop.app.database.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, owner.email), eq(mailOutbox.subject, 'Восстановление пароля — Мягкий Опт')));
    expect(reset!.text).toContain('Ваш персональный менеджер: Ольга Смирнова');
    const mine = json<{ items: { id: number }[] }>(
      await call('GET', '/api/v1/admin/orders?mine=true&limit=100', personal.headers),
    );
    expect(mine.items.map((item) => item.id)).toEqual([order.id]);
    const clients = json<{ items: { id: number }[] }>(
      await call('GET', '/api/v1/admin/companies?mine=true', personal.headers),
    );
    expect(clients.items.map((item) => item.id)).toEqual([companyId]);
  });
});

describe('152-ФЗ: deleting an account', () => {
  const deleteAccount = (shopper: Shopper) =>
    call('DELETE', '/api/v1/auth/user', shopper.headers, { password: TEST_PASSWORD });

  it('the only owner of a company with employees is refused with the reason; a purchaser leaves, the orders stay', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    const order = json<OrderSummary>(await placeOrder(purchaser, { contact_name: 'Пётр' }));
    const refused = await deleteAccount(owner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: COMPANY_MESSAGES.ownerDeletionRefused });
    expect((await deleteAccount(purchaser)).statusCode).toBe(204);
    const detail = json<{ placed_by: unknown; address: string }>(
      await call('GET', `/api/v1/order/${owner.id}/${order.id}`, owner.headers),
    );
    expect(detail.placed_by).toEqual({ user_id: null, name: DELETED_PERSONAL_DATA });
    expect(detail.address).toBe('г. Тверь, ул. Советская, д. 3');
    expect((await deleteAccount(owner)).statusCode).toBe(204);
  });

  it('the data export holds the company as the employee sees it', async () => {
    const [owner] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const purchaser = await employeeOf(owner, 'purchaser');
    await addEntity(owner);
    const order = json<OrderSummary>(await placeOrder(owner));
    const data = json<{ company: Company; orders: { id: number }[] }>(
      await call('GET', '/api/v1/auth/user/export', purchaser.headers),
    );
    expect(data.company).toMatchObject({ role: 'purchaser', invitations: [] });
    expect(data.company.legal_entities.map((entity) => entity.inn)).toEqual([ORGANISATION.inn]);
    expect(data.orders.map((entry) => entry.id)).toEqual([order.id]);
    const [row] = await shop.app.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, purchaser.id), eq(users.companyRole, 'purchaser')));
    expect(row).toBeDefined();
  });
});
