// Migration 0033 brings the 1С exchange: a shop of the schema before it is migrated, and the first
// type=sale query will send the orders still under way (1С has never seen them), not the finished ones.
import { STARTUP_TIMEOUT } from '../../../test/server/helpers/test-app';
import {
  MIGRATIONS,
  migrationsBefore,
  openMigrationTarget,
  removeFolder,
  runScript,
  type MigrationTarget,
} from '../../../test/server/helpers/migration-steps';

const OLD_SHOP = `
insert into companies (id, name) overriding system value values (1, 'ООО «Ромашка»');
insert into users (id, email, password_hash, role, company_id, company_role) overriding system value values
  (1, 'buyer@example.ru', 'h', 'buyer', 1, 'owner');
insert into categories (id, name, position) overriding system value values (1, 'Мишки', 1);
insert into products (id, art, name, image, category_id, curated_rank) overriding system value values
  (1, 'MO-1', 'Мишка', 'bear.svg', 1, 1);
insert into variants (id, product_id, color, size, price, stock) overriding system value values
  (1, 1, 'Белый', 30, 500.00, 10);
insert into orders (id, user_id, company_id, status, address, total_price) overriding system value values
  (1, 1, 1, 'Создан', 'Москва', 1000.00), (2, 1, 1, 'Оплачен', 'Москва', 500.00),
  (3, 1, 1, 'Доставлен', 'Москва', 500.00), (4, 1, 1, 'Отменён', 'Москва', 500.00)`;

const PENDING = `select id from orders
  where exchange_confirmed_at is null or exchange_confirmed_at < exchange_changed_at order by id`;

describe('migration 0033 (the 1С exchange)', () => {
  let target: MigrationTarget;
  let folder: string;

  beforeAll(async () => {
    ({ target } = await openMigrationTarget('migration_0033'));
    folder = await migrationsBefore(33);
    await target.migrate(folder);
    await runScript(target, OLD_SHOP);
    await target.migrate(MIGRATIONS);
  }, STARTUP_TIMEOUT);
  afterAll(async () => {
    await target.close();
    await removeFolder(folder);
  });

  it('leaves the orders under way for the first query and takes the delivered and cancelled ones as known', async () => {
    expect(await target.query(PENDING)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await target.query('select count(*)::int as count from orders where one_c_document is not null')).toEqual([
      { count: 0 },
    ]);
  });

  it('gives nobody exchange access and links nothing to 1С', async () => {
    expect(await target.query('select exchange_access from users')).toEqual([{ exchange_access: false }]);
    expect(await target.query('select external_id from products')).toEqual([{ external_id: null }]);
    expect(await target.query('select external_id, barcode from variants')).toEqual([
      { external_id: null, barcode: null },
    ]);
    expect(await target.query('select external_id from categories')).toEqual([{ external_id: null }]);
  });

  it('keeps one product per 1С Ид', async () => {
    await target.query(`update products set external_id = 'a1b2'`);
    await expect(
      target.query(`insert into products (id, art, name, image, category_id, curated_rank, external_id)
        overriding system value values (2, 'MO-2', 'Заяц', 'hare.svg', 1, 2, 'a1b2')`),
    ).rejects.toThrow(/products_external_id_unique/);
  });
});
