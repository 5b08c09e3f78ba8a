import { desc, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages';
import { SUPPLIER_MESSAGES } from '../../../shared/requisites';
import type { SupplierRequisites } from '../../../shared/schemas/settings';
import { auditLog, supplierRequisites } from '../../db/schema';
import { STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { openBackOffice } from '../../../../test/server/helpers/back-office';
import { SUPPLIER } from '../../../../test/server/helpers/invoices';

const URL = '/api/v1/admin/settings/requisites';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const read = (who: Shopper | null = manager) =>
  shop.app.inject({ method: 'GET', url: URL, headers: who?.headers ?? {} });
const save = (payload: unknown, who: Shopper | null = manager) =>
  shop.app.inject({ method: 'PUT', url: URL, headers: who?.headers ?? {}, payload: payload as object });

const lastAudit = async () =>
  (await shop.app.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

describe('/api/v1/admin/settings/requisites', () => {
  it('without a token → 401, a buyer → 403, on GET and PUT; nothing is saved', async () => {
    for (const request of [read(null), save(SUPPLIER, null)]) expect((await request).statusCode).toBe(401);
    for (const request of [read(buyer), save(SUPPLIER, buyer)]) {
      const response = await request;
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Раздел доступен только менеджерам магазина' });
    }
    expect(await shop.app.database.db.select().from(supplierRequisites)).toEqual([]);
  });

  it('null until filled in; PUT stores them (trimmed), GET returns them, the audit log has before and after', async () => {
    const empty = await read();
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toBeNull();

    const saved = await save({ ...SUPPLIER, name: `  ${SUPPLIER.name} ` });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(SUPPLIER);
    expect((await read()).json()).toEqual(SUPPLIER);
    expect(await lastAudit()).toMatchObject({
      byUserId: manager.id,
      action: 'settings.requisites',
      before: null,
      after: SUPPLIER,
    });

    const changed: SupplierRequisites = { ...SUPPLIER, vat_rate: null, payment_days: 10, address: 'г. Тверь' };
    expect((await save(changed)).json()).toEqual(changed);
    expect((await read()).json()).toEqual(changed);
    expect(await lastAudit()).toMatchObject({ action: 'settings.requisites', before: SUPPLIER, after: changed });
    expect(await shop.app.database.db.select().from(supplierRequisites)).toHaveLength(1);
  });

  it('an ИП: a 12-digit ИНН, an ОГРНИП and no КПП (a blank one is none)', async () => {
    const soleTrader = {
      ...SUPPLIER,
      name: 'ИП Иванова М. П.',
      inn: '500100732259',
      kpp: ' ',
      ogrn: '304500116000157',
    };
    const response = await save(soleTrader);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...soleTrader, kpp: null });
  });

  it.each([
    ['an ИНН whose check digit is wrong', { inn: '7707083894' }, MESSAGES.innChecksum],
    ['a БИК of another country', { bik: '144525225' }, SUPPLIER_MESSAGES.bikInvalid],
    ['a settlement account whose key is wrong', { account: '40702810738000000000' }, SUPPLIER_MESSAGES.accountChecksum],
    [
      "a correspondent account of a Saint Petersburg bank beside a Moscow bank's БИК",
      { corr_account: '30101810500000000653' },
      SUPPLIER_MESSAGES.corrAccountChecksum,
    ],
    ['an ОГРН whose check digit is wrong', { ogrn: '1027700132196' }, SUPPLIER_MESSAGES.ogrnChecksum],
    ['an organisation without a КПП', { kpp: null }, 'Заполните реквизиты поставщика: КПП.'],
    ['a blank name', { name: '   ' }, 'Заполните реквизиты поставщика: наименование.'],
  ])('%s → 422 {detail} in Russian, nothing changes', async (_case, change, detail) => {
    const before = (await read()).json();
    const response = await save({ ...SUPPLIER, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail });
    expect((await read()).json()).toEqual(before);
  });

  it('a body of the wrong shape → 422 in Russian (a VAT rate the tax code has not, a missing field)', async () => {
    for (const body of [{ ...SUPPLIER, vat_rate: 18 }, { ...SUPPLIER, payment_days: 0 }, { name: 'ООО' }]) {
      const response = await save(body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
    }
    const [row] = await shop.app.database.db.select().from(supplierRequisites).where(eq(supplierRequisites.id, 1));
    expect(row!.vatRate).not.toBe(18);
  });
});
