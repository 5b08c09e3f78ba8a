// Migration 0031 brings price types: a shop of the schema before it (a catalogue, carts and an
// order placed) is migrated, and nobody's price changes: the shop's one price is the default
// type's, products sell any count, lines placed before keep their price and no type.
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
  (1, 1, 'Белый', 30, 500.00, 10), (2, 1, 'Белый', 50, 899.90, 3);
insert into cart_items (user_id, product_id, variant_id, count, price_when_added) values (1, 1, 2, 2, 899.90);
insert into orders (id, user_id, company_id, status, address, total_price) overriding system value values
  (1, 1, 1, 'Создан', 'Москва', 1000.00);
insert into order_lines (order_id, product_id, variant_id, product_name, color, size, price, quantity) values
  (1, 1, 1, 'Мишка', 'Белый', 30, 500.00, 2)`;

describe('migration 0031 (wholesale prices)', () => {
  let target: MigrationTarget;
  let folder: string;

  beforeAll(async () => {
    ({ target } = await openMigrationTarget('migration_0031'));
    folder = await migrationsBefore(31);
    await target.migrate(folder);
    await runScript(target, OLD_SHOP);
    await target.migrate(MIGRATIONS);
  }, STARTUP_TIMEOUT);
  afterAll(async () => {
    await target.close();
    await removeFolder(folder);
  });

  it('makes «Опт» the default type, whose prices are the shop’s one price, with no other type’s', async () => {
    expect(await target.query('select code, name, is_default, is_rrp, min_order_sum from price_types')).toEqual([
      { code: 'opt', name: 'Опт', is_default: true, is_rrp: false, min_order_sum: '0.00' },
    ]);
    expect(await target.query('select id, price from variants order by id')).toEqual([
      { id: 1, price: '500.00' },
      { id: 2, price: '899.90' },
    ]);
    expect(await target.query('select count(*)::int as count from variant_prices')).toEqual([{ count: 0 }]);
    expect(await target.query('select price_type_id from companies')).toEqual([{ price_type_id: null }]);
  });

  it('lets every product sell any count, and keeps the carts and the lines placed before as they were', async () => {
    expect(await target.query('select multiple, min_quantity from products')).toEqual([
      { multiple: 1, min_quantity: 1 },
    ]);
    expect(await target.query('select count, price_when_added from cart_items')).toEqual([
      { count: 2, price_when_added: '899.90' },
    ]);
    expect(
      await target.query(
        'select price, quantity, list_price, price_type_id, price_type_name, tier_from from order_lines',
      ),
    ).toEqual([
      { price: '500.00', quantity: 2, list_price: null, price_type_id: null, price_type_name: null, tier_from: null },
    ]);
  });

  it('refuses a minimum that is not a multiple, and a tier of one piece', async () => {
    await expect(target.query('update products set multiple = 6, min_quantity = 8')).rejects.toThrow(
      /products_min_quantity_of_multiple/,
    );
    await expect(
      target.query('insert into price_tiers (price_type_id, product_id, from_quantity, price) values (1, 1, 1, 400)'),
    ).rejects.toThrow(/price_tiers_from_above_one/);
  });
});
