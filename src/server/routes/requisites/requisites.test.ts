import type { Company, Requisites } from '../../../shared/api';
import { MESSAGES } from '../../../shared/messages';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const CYRILLIC = /[а-яё]/i;
/** As sent; the answer adds the legal entity the company fields became (ANY_ENTITY). */
const ORGANISATION = {
  company_name: 'ООО «Игрушки»',
  company_inn: '7707083893',
  company_kpp: '770101001',
  contact_name: 'Иван Петров',
  contact_phone: '+7 900 000-00-00',
};
const NOTHING: Requisites = {
  company_name: null,
  company_inn: null,
  company_kpp: null,
  contact_name: null,
  contact_phone: null,
  legal_entity_id: null,
};
const ANY_ENTITY = { legal_entity_id: expect.stringMatching(/^[0-9a-f-]{36}$/) };
const SAVED_ORGANISATION = { ...ORGANISATION, ...ANY_ENTITY };

let shop: TestApp;
let owner: Shopper;
let intruder: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  [owner, intruder] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const read = (shopper: Shopper, userId = shopper.id, headers: Record<string, string> = shopper.headers) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/requisites/${userId}`, headers });
const save = (
  shopper: Shopper,
  payload: Record<string, unknown>,
  userId = shopper.id,
  headers: Record<string, string> = shopper.headers,
) => shop.app.inject({ method: 'PUT', url: `/api/v1/requisites/${userId}`, headers, payload });

async function requisitesOf(shopper: Shopper): Promise<Requisites> {
  const response = await read(shopper);
  expect(response.statusCode).toBe(200);
  return json<Requisites>(response);
}

const fresh = async () => (await quickShoppers(shop.app, 1))[0]!;

describe('requisites: saved for the next checkout', () => {
  it('a buyer with no orders and nothing saved gets every field as null', async () => {
    expect(await requisitesOf(await fresh())).toEqual(NOTHING);
  });

  it('PUT saves them (trimmed, blanks as null): the ИНН and КПП become the company’s default legal entity', async () => {
    const buyer = await fresh();
    const response = await save(buyer, { ...ORGANISATION, contact_name: '  Иван Петров ', company_name: '   ' });
    expect(response.statusCode).toBe(200);
    // A legal entity has a name: without one typed, the ИНН names it.
    const expected = { ...SAVED_ORGANISATION, company_name: 'ИНН 7707083893' };
    expect(json(response)).toEqual(expected);
    expect(await requisitesOf(buyer)).toEqual(expected);
    const company = json<Company>(
      await shop.app.inject({ method: 'GET', url: '/api/v1/company', headers: buyer.headers }),
    );
    expect(company.legal_entities).toEqual([
      expect.objectContaining({
        id: json<Requisites>(response).legal_entity_id,
        kind: 'org',
        inn: '7707083893',
        kpp: '770101001',
        is_default: true,
      }),
    ]);
  });

  it('a second PUT replaces the first: another ИНН is another legal entity, made the default; absent fields become null', async () => {
    const buyer = await fresh();
    const first = json<Requisites>(await save(buyer, ORGANISATION));
    const response = await save(buyer, { company_inn: '500100732259', contact_phone: '+7 911' });
    expect(response.statusCode).toBe(200);
    const second = await requisitesOf(buyer);
    expect(second).toEqual({
      ...NOTHING,
      ...ANY_ENTITY,
      company_name: 'ИНН 500100732259',
      company_inn: '500100732259',
      contact_phone: '+7 911',
    });
    expect(second.legal_entity_id).not.toBe(first.legal_entity_id);
    // The organisation stays the company's, unchanged: orders made out to it keep naming it.
    const company = json<Company>(
      await shop.app.inject({ method: 'GET', url: '/api/v1/company', headers: buyer.headers }),
    );
    expect(company.legal_entities.map((entity) => [entity.kind, entity.name, entity.is_default])).toEqual([
      ['org', 'ООО «Игрушки»', false],
      ['ip', 'ИНН 500100732259', true],
    ]);
  });

  it('a body without the company fields (a form of the name and phone alone) leaves the default legal entity; blanks clear it', async () => {
    const buyer = await fresh();
    const saved = json<Requisites>(await save(buyer, ORGANISATION));
    const contactOnly = await save(buyer, { contact_name: 'Пётр', contact_phone: '+7 911' });
    expect(json(contactOnly)).toEqual({
      ...SAVED_ORGANISATION,
      legal_entity_id: saved.legal_entity_id,
      contact_name: 'Пётр',
      contact_phone: '+7 911',
    });
    const cleared = await save(buyer, { company_inn: '  ', contact_name: 'Пётр' });
    expect(json(cleared)).toEqual({ ...NOTHING, contact_name: 'Пётр' });
  });

  it('legal_entity_id chooses one of the company’s legal entities; another company’s → 404, nothing changed', async () => {
    const buyer = await fresh();
    const organisation = json<Requisites>(await save(buyer, ORGANISATION)).legal_entity_id!;
    await save(buyer, { company_inn: '500100732259' });
    const chosen = await save(buyer, { legal_entity_id: organisation, contact_name: 'Иван' });
    expect(chosen.statusCode).toBe(200);
    expect(json(chosen)).toMatchObject({
      legal_entity_id: organisation,
      company_inn: '7707083893',
      contact_name: 'Иван',
    });
    const stranger = await fresh();
    const theirs = json<Requisites>(await save(stranger, ORGANISATION)).legal_entity_id!;
    const refused = await save(buyer, { legal_entity_id: theirs });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ detail: 'Юрлицо не найдено' });
    expect((await requisitesOf(buyer)).legal_entity_id).toBe(organisation);
  });

  it('until something is saved, the details of the last order are offered', async () => {
    const buyer = await fresh();
    const product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((v) => v.stock > 2))!;
    const variant = product.variants.find((candidate) => candidate.stock > 2)!;
    const placeOrder = (details: Partial<Requisites>) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: buyer.headers,
        payload: {
          user_id: buyer.id,
          address: 'Москва, Складская 1',
          items: [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
          ...NOTHING,
          ...details,
        },
      });
    expect((await placeOrder({ contact_name: 'Первый' })).statusCode).toBe(201);
    expect((await placeOrder(ORGANISATION)).statusCode).toBe(201);
    expect(await requisitesOf(buyer)).toEqual({ ...ORGANISATION, legal_entity_id: null });
    await save(buyer, { contact_name: 'Сохранённый' });
    expect(await requisitesOf(buyer)).toEqual({ ...NOTHING, contact_name: 'Сохранённый' });
  });

  it('unknown fields are ignored: neither stored nor answered', async () => {
    const buyer = await fresh();
    const response = await save(buyer, { ...ORGANISATION, user_id: intruder.id, is_admin: true });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(json<object>(response)).sort()).toEqual(Object.keys(SAVED_ORGANISATION).sort());
    expect(await requisitesOf(buyer)).toEqual(SAVED_ORGANISATION);
    expect(await requisitesOf(intruder)).toEqual(NOTHING);
  });
});

describe('requisites: the ИНН and КПП rules of the law (src/shared/requisites.ts)', () => {
  it.each([
    ['nine digits', { company_inn: '770708389' }, MESSAGES.innLength],
    ['letters', { company_inn: '77070838a3' }, MESSAGES.innLength],
    ['a wrong check digit', { company_inn: '7707083894' }, MESSAGES.innChecksum],
    [
      "a КПП beside an ИП's ИНН",
      { company_inn: '500100732259', company_kpp: '770101001' },
      MESSAGES.kppWithPersonalInn,
    ],
    ['a short КПП', { company_inn: '7707083893', company_kpp: '7701' }, MESSAGES.kppLength],
  ])('%s → 422 with its Russian detail, nothing stored', async (_case, fields, message) => {
    const buyer = await fresh();
    await save(buyer, ORGANISATION);
    const response = await save(buyer, { ...ORGANISATION, ...fields });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: message });
    expect(await requisitesOf(buyer)).toEqual(SAVED_ORGANISATION);
  });

  it('a field longer than the order allows → 422 naming it as the form does', async () => {
    const response = await save(owner, { ...ORGANISATION, contact_phone: '9'.repeat(40) });
    expect(response.statusCode).toBe(422);
    const { detail } = json<{ detail: string }>(response);
    expect(detail).toMatch(CYRILLIC);
    expect(detail).toContain('Телефон');
    expect(detail).not.toContain('contact_phone');
  });
});

describe('requisites: only their owner reaches them', () => {
  it("another buyer's requisites → 403 on read and on write, and they stay as they were", async () => {
    await save(owner, ORGANISATION);
    const peek = await read(intruder, owner.id);
    expect(peek.statusCode).toBe(403);
    expect(peek.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    const overwrite = await save(intruder, { contact_name: 'Чужой' }, owner.id);
    expect(overwrite.statusCode).toBe(403);
    expect(await requisitesOf(owner)).toEqual(SAVED_ORGANISATION);
  });

  it('without a token → 401 on read and on write', async () => {
    expect((await read(owner, owner.id, {})).statusCode).toBe(401);
    const response = await save(owner, ORGANISATION, owner.id, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('a user id that is not a number → 422', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/requisites/abc', headers: owner.headers });
    expect(response.statusCode).toBe(422);
  });
});
