import type { Address } from '../../../shared/api';
import {
  createTestApp,
  json,
  quickShoppers,
  signUp,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const CYRILLIC = /[а-яё]/i;
const ADDRESS_KEYS = ['apartment_number', 'city', 'country', 'home_number', 'id', 'street', 'user_id'];

let shop: TestApp;
let owner: Shopper;
let intruder: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  owner = await signUp(shop.app);
  intruder = (await quickShoppers(shop.app, 1))[0]!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const fields = (overrides: Record<string, unknown> = {}) => ({
  country: 'Россия',
  city: 'Москва',
  street: 'ул. Тверская',
  home_number: '7',
  apartment_number: '15',
  ...overrides,
});

const create = (shopper: Shopper, body: Record<string, unknown>) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/address/',
    headers: shopper.headers,
    payload: { user_id: shopper.id, ...body },
  });
const list = (shopper: Shopper, userId = shopper.id) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/address/${userId}`, headers: shopper.headers });
const update = (shopper: Shopper, id: number, body: Record<string, unknown>) =>
  shop.app.inject({
    method: 'PUT',
    url: `/api/v1/address/${id}`,
    headers: shopper.headers,
    payload: { user_id: shopper.id, ...body },
  });
const remove = (shopper: Shopper, id: number) =>
  shop.app.inject({ method: 'DELETE', url: `/api/v1/address/${id}`, headers: shopper.headers });

async function createOk(shopper: Shopper, body: Record<string, unknown> = fields()): Promise<Address> {
  const response = await create(shopper, body);
  expect(response.statusCode).toBe(201);
  return json<Address>(response);
}

async function addressesOf(shopper: Shopper): Promise<Address[]> {
  const response = await list(shopper);
  expect(response.statusCode).toBe(200);
  return json<Address[]>(response);
}

describe('address CRUD', () => {
  it('create → 201 with exactly the SPEC §3 fields and an id', async () => {
    const response = await create(owner, fields());
    expect(response.statusCode).toBe(201);
    const address = json<Address>(response);
    expect(Object.keys(address).sort()).toEqual(ADDRESS_KEYS);
    expect(address).toEqual({ id: expect.any(Number), ...fields(), user_id: owner.id });
  });

  it('apartment_number is optional: absent, null or blank are stored as null', async () => {
    for (const apartment of [undefined, null, '', '  ']) {
      const address = await createOk(owner, fields({ apartment_number: apartment }));
      expect(address.apartment_number).toBeNull();
    }
  });

  it("list answers the user's addresses in creation order", async () => {
    const fresh = (await quickShoppers(shop.app, 1))[0]!;
    expect(await addressesOf(fresh!)).toEqual([]);
    const first = await createOk(fresh!, fields({ city: 'Тула' }));
    const second = await createOk(fresh!, fields({ city: 'Казань' }));
    expect(await addressesOf(fresh!)).toEqual([first, second]);
  });

  it('update replaces the fields and answers the new address', async () => {
    const address = await createOk(owner);
    const response = await update(
      owner,
      address.id,
      fields({ city: 'Санкт-Петербург', street: 'Невский пр.', home_number: '28', apartment_number: null }),
    );
    expect(response.statusCode).toBe(200);
    const updated = json<Address>(response);
    expect(updated).toEqual({
      ...address,
      city: 'Санкт-Петербург',
      street: 'Невский пр.',
      home_number: '28',
      apartment_number: null,
    });
    expect((await addressesOf(owner)).find((candidate) => candidate.id === address.id)).toEqual(updated);
  });

  it('delete → 200 {detail}; the address is gone; deleting again → 404', async () => {
    const address = await createOk(owner);
    const response = await remove(owner, address.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect((await addressesOf(owner)).some((candidate) => candidate.id === address.id)).toBe(false);
    const again = await remove(owner, address.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('update of an address that does not exist → 404', async () => {
    const response = await update(owner, 2_000_000_000, fields());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });
});

describe('the number of addresses (MAX_ADDRESSES, 20 by default)', () => {
  it('the 21st → 409 saying what to do, nothing stored; after a deletion there is room again', async () => {
    const [shopper, other] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const saved: Address[] = [];
    for (let i = 1; i <= 20; i += 1) saved.push(await createOk(shopper, fields({ home_number: String(i) })));
    const refused = await create(shopper, fields({ home_number: '21' }));
    expect(refused.statusCode).toBe(409);
    expect(json<{ detail: string }>(refused).detail).toBe(
      'Можно сохранить не больше 20 адресов. Удалите ненужный адрес, чтобы добавить новый',
    );
    expect(await addressesOf(shopper)).toHaveLength(20);
    // Another buyer's addresses are their own count.
    await createOk(other);

    expect((await remove(shopper, saved[0]!.id)).statusCode).toBe(200);
    await createOk(shopper, fields({ home_number: '21' }));
  });

  it('additions sent at once cannot pass the cap together', async () => {
    const [shopper] = (await quickShoppers(shop.app, 1)) as [Shopper];
    for (let i = 1; i <= 18; i += 1) await createOk(shopper, fields({ home_number: String(i) }));
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((house) => create(shopper, fields({ home_number: house }))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(await addressesOf(shopper)).toHaveLength(20);
  });
});

describe('address validation', () => {
  it.each([
    ['country', 'Страна'],
    ['city', 'Город'],
    ['street', 'Улица'],
    ['home_number', 'Дом'],
  ])('missing %s → 422 with a Russian detail naming it as the form does (%s); nothing stored', async (field, label) => {
    const before = await addressesOf(owner);
    const body = fields();
    delete (body as Record<string, unknown>)[field];
    const response = await create(owner, body);
    expect(response.statusCode).toBe(422);
    const { detail } = json<{ detail: string }>(response);
    expect(detail).toMatch(CYRILLIC);
    expect(detail).toContain(`«${label}»`);
    expect(detail).not.toContain(field);
    expect(await addressesOf(owner)).toEqual(before);
  });

  it.each([
    ['country', ''],
    ['city', '   '],
    ['street', '\t'],
    ['home_number', ''],
    ['home_number', '   '],
  ])('blank %s (%j) → 422 on create and on update', async (field, value) => {
    const created = await create(owner, fields({ [field]: value }));
    expect(created.statusCode).toBe(422);
    expect(created.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });

    const address = await createOk(owner);
    const updated = await update(owner, address.id, fields({ [field]: value }));
    expect(updated.statusCode).toBe(422);
    expect((await addressesOf(owner)).find((candidate) => candidate.id === address.id)).toEqual(address);
  });

  it.each([
    ['a number for city', { city: 42 }],
    ['an over-long street', { street: 'у'.repeat(201) }],
    ['a string user_id', { user_id: 'me' }],
  ])('%s → 422', async (_name, override) => {
    const response = await create(owner, fields(override));
    expect(response.statusCode).toBe(422);
  });

  it('missing user_id → 422', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: owner.headers,
      payload: fields(),
    });
    expect(response.statusCode).toBe(422);
    expect(json<{ detail: string }>(response).detail).toContain('user_id');
  });
});

describe('address ownership', () => {
  let victims: Address[];
  let target: Address;
  beforeAll(async () => {
    target = await createOk(owner, fields({ city: 'Екатеринбург' }));
    victims = await addressesOf(owner);
  });

  it('creating for another user_id → 403, nothing stored for anyone', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: intruder!.headers,
      payload: { ...fields(), user_id: owner.id },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(await addressesOf(owner)).toEqual(victims);
    expect(await addressesOf(intruder!)).toEqual([]);
  });

  it("listing another user's addresses → 403", async () => {
    const response = await list(intruder!, owner.id);
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('Екатеринбург');
  });

  it("updating another user's address → 404 (with own user_id) or 403 (with theirs); unchanged", async () => {
    const own = await update(intruder!, target.id, fields({ city: 'Взломанск' }));
    expect(own.statusCode).toBe(404);
    const theirs = await shop.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${target.id}`,
      headers: intruder!.headers,
      payload: { ...fields({ city: 'Взломанск' }), user_id: owner.id },
    });
    expect(theirs.statusCode).toBe(403);
    expect(await addressesOf(owner)).toEqual(victims);
  });

  it("deleting another user's address → 404; unchanged", async () => {
    const response = await remove(intruder!, target.id);
    expect(response.statusCode).toBe(404);
    expect(await addressesOf(owner)).toEqual(victims);
  });

  it('no token → 401 on every address call', async () => {
    for (const [method, url, payload] of [
      ['POST', '/api/v1/address/', { ...fields(), user_id: owner.id }],
      ['GET', `/api/v1/address/${owner.id}`, undefined],
      ['PUT', `/api/v1/address/${target.id}`, { ...fields(), user_id: owner.id }],
      ['DELETE', `/api/v1/address/${target.id}`, undefined],
    ] as const) {
      const response = await shop.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode).toBe(401);
    }
    expect(await addressesOf(owner)).toEqual(victims);
  });
});
