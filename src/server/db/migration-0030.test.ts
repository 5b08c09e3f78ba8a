// Migration 0030 turns every account into a company of one: a database of the schema before it,
// holding buyers, requisites, addresses, carts and orders, is migrated, and every row of those
// tables is compared with what it held before and what the migration had to make of it.
import { STARTUP_TIMEOUT } from '../../../test/server/helpers/test-app';
import {
  migrationsBefore,
  openMigrationTarget,
  removeFolder,
  runScript,
  type MigrationTarget as Target,
  type Row,
} from '../../../test/server/helpers/migration-steps';

const FIRST_NEW = 30;

// The shop of the schema before: four buyers (an organisation's requisites, an ИП's, none, a
// company name with no ИНН), a manager who shops too, their addresses, carts and orders, and an
// order whose buyer deleted the account.
const OLD_SHOP = `
insert into users (id, email, password_hash, role, created_at, email_confirmed_at, first_paid_at, trusted_at)
overriding system value values
  (11, 'org@example.ru', 'h1', 'buyer', '2025-01-01T10:00:00Z', '2025-01-01T10:05:00Z', '2025-02-01T10:00:00Z', null),
  (12, 'ip@example.ru', 'h2', 'buyer', '2025-01-02T10:00:00Z', null, null, '2025-03-01T10:00:00Z'),
  (13, 'plain@example.ru', 'h3', 'buyer', '2025-01-03T10:00:00Z', null, null, null),
  (14, 'name-only@example.ru', 'h4', 'buyer', '2025-01-04T10:00:00Z', null, null, null),
  (15, 'boss@example.ru', 'h5', 'manager', '2025-01-05T10:00:00Z', '2025-01-05T10:00:00Z', null, null);
select setval(pg_get_serial_sequence('users', 'id'), 15);
insert into requisites (user_id, company_name, company_inn, company_kpp, contact_name, contact_phone, updated_at) values
  (11, 'ООО «Ромашка»', '7707083893', '770701001', 'Анна', '+7 900 000-00-01', '2025-01-10T10:00:00Z'),
  (12, 'ИП Петров П. П.', '500100732259', null, 'Пётр', null, '2025-01-11T10:00:00Z'),
  (14, 'Магазин у дома', null, null, 'Ольга', '+7 900 000-00-04', '2025-01-12T10:00:00Z');
insert into addresses (user_id, country, city, street, home_number, apartment_number) values
  (11, 'Россия', 'Москва', 'Тверская', '1', '10'),
  (11, 'Россия', 'Казань', 'Баумана', '5', null),
  (13, 'Россия', 'Тула', 'Ленина', '2', null),
  (15, 'Россия', 'Москва', 'Арбат', '3', null);
insert into categories (name, position) values ('Мишки', 1);
insert into products (art, name, image, category_id, curated_rank) values ('MO-1', 'Мишка', 'bear.webp', (select id from categories), 1);
insert into variants (product_id, color, size, price, stock) values
  ((select id from products), 'Белый', 30, 500.00, 10),
  ((select id from products), 'Бурый', 40, 700.50, 5);
insert into cart_items (user_id, product_id, variant_id, count, price_when_added)
  select 11, product_id, id, 3, price from variants where color = 'Белый';
insert into cart_items (user_id, product_id, variant_id, count, price_when_added)
  select 12, product_id, id, 1, price from variants where color = 'Бурый';
insert into orders (user_id, status, address, contact_name, contact_phone, company_name, company_inn, company_kpp, total_price, created_at) values
  (11, 'Доставлен', 'Москва, Тверская, 1', 'Анна', '+7 900 000-00-01', 'ООО «Ромашка»', '7707083893', '770701001', 1500.00, '2025-02-01T09:00:00Z'),
  (11, 'Создан', 'Казань, Баумана, 5', 'Анна', null, null, null, null, 700.50, '2025-02-05T09:00:00Z'),
  (12, 'Оплачен', 'Тула', null, null, 'ИП Петров П. П.', '500100732259', null, 500.00, '2025-03-02T09:00:00Z'),
  (null, 'Отменён', '[удалено]', '[удалено]', null, null, null, null, 500.00, '2025-01-20T09:00:00Z');
insert into order_lines (order_id, product_id, variant_id, product_name, color, size, price, quantity)
  select o.id, v.product_id, v.id, 'Мишка', v.color, v.size, v.price, 1 from orders o cross join variants v;
`;

const byId = (table: string, key = 'id') => `select * from ${table} order by ${key}`;
const TABLES = {
  users: byId('users'),
  requisites: byId('requisites', 'user_id'),
  addresses: byId('addresses'),
  cart_items: byId('cart_items'),
  cart_revisions: byId('cart_revisions', 'user_id'),
  orders: byId('orders'),
  order_lines: byId('order_lines'),
};

async function snapshot(target: Target): Promise<Record<keyof typeof TABLES, Row[]>> {
  const entries = await Promise.all(
    Object.entries(TABLES).map(async ([table, text]) => [table, await target.query(text)] as const),
  );
  return Object.fromEntries(entries) as Record<keyof typeof TABLES, Row[]>;
}

/** The row without these columns. */
const without = (row: Row, ...columns: string[]) =>
  Object.fromEntries(Object.entries(row).filter(([column]) => !columns.includes(column)));

function describeMigration() {
  describe('migration 0030 (buyer companies)', () => {
    let target: Target;
    let before: Awaited<ReturnType<typeof snapshot>>;
    let after: Awaited<ReturnType<typeof snapshot>>;
    let folder: string;
    let folderThrough: string;

    beforeAll(async () => {
      ({ target } = await openMigrationTarget('migration_0030'));
      folder = await migrationsBefore(FIRST_NEW);
      await target.migrate(folder);
      await runScript(target, OLD_SHOP);
      before = await snapshot(target);
      // Through this migration only: later ones add columns of their own.
      folderThrough = await migrationsBefore(FIRST_NEW + 1);
      await target.migrate(folderThrough);
      after = await snapshot(target);
    }, STARTUP_TIMEOUT);
    afterAll(async () => {
      await target.close();
      await removeFolder(folder);
      await removeFolder(folderThrough);
    });

    it('keeps every account, each now the owner of a company of its own, numbered as the account', () => {
      expect(after.users).toHaveLength(before.users.length);
      after.users.forEach((row, index) => {
        expect(without(row, 'company_id', 'company_role')).toEqual(
          without(before.users[index]!, 'first_paid_at', 'trusted_at'),
        );
        expect(row).toMatchObject({ company_id: row.id, company_role: 'owner' });
      });
    });

    it('names each company by the requisites, moves the standing to it, and numbers new ones after', async () => {
      const companies = await target.query(
        'select id, name, created_at, first_paid_at, trusted_at, blocked_at, manager_id from companies order by id',
      );
      expect(companies.map(({ id, name }) => [id, name])).toEqual([
        [11, 'ООО «Ромашка»'],
        [12, 'ИП Петров П. П.'],
        [13, 'plain@example.ru'],
        [14, 'Магазин у дома'],
        [15, 'boss@example.ru'],
      ]);
      companies.forEach((company, index) => {
        const user = before.users[index]!;
        expect(company).toMatchObject({
          created_at: user.created_at,
          first_paid_at: user.first_paid_at,
          trusted_at: user.trusted_at,
          blocked_at: null,
          manager_id: null,
        });
      });
      const [next] = await target.query(`insert into companies (name) values ('Новая') returning id`);
      expect(next!.id).toBe(16);
    });

    it('makes the requisites with an ИНН the company’s first legal entity and its default', async () => {
      const entities = await target.query(
        `select le.company_id, le.kind, le.name, le.inn, le.kpp, le.address, le.created_at,
           c.default_legal_entity_id = le.id as is_default
         from legal_entities le join companies c on c.id = le.company_id order by le.company_id`,
      );
      expect(entities).toEqual([
        {
          company_id: 11,
          kind: 'org',
          name: 'ООО «Ромашка»',
          inn: '7707083893',
          kpp: '770701001',
          address: '',
          created_at: before.requisites[0]!.updated_at,
          is_default: true,
        },
        {
          company_id: 12,
          kind: 'ip',
          name: 'ИП Петров П. П.',
          inn: '500100732259',
          kpp: null,
          address: '',
          created_at: before.requisites[1]!.updated_at,
          is_default: true,
        },
      ]);
      const withoutEntity = await target.query(
        'select id from companies where default_legal_entity_id is null and id <= 15 order by id',
      );
      expect(withoutEntity.map((company) => company.id)).toEqual([13, 14, 15]);
    });

    it('keeps the contact details as the employee’s own', () => {
      expect(after.requisites).toEqual(
        before.requisites.map((row) => without(row, 'company_name', 'company_inn', 'company_kpp')),
      );
    });

    it('gives every address to its buyer’s company, keeping who added it', () => {
      expect(after.addresses.map((row) => without(row, 'company_id'))).toEqual(before.addresses);
      expect(after.addresses.map((row) => row.company_id)).toEqual(before.addresses.map((row) => row.user_id));
    });

    it('leaves the carts personal and as they were', () => {
      expect(after.cart_items).toEqual(before.cart_items);
      expect(after.cart_revisions).toEqual(before.cart_revisions);
      expect(after.order_lines).toEqual(before.order_lines);
    });

    it('makes the orders the company’s, naming who placed them and the legal entity they were made out to', async () => {
      expect(after.orders.map((row) => without(row, 'company_id', 'legal_entity_id', 'placed_by_name'))).toEqual(
        before.orders,
      );
      const entityOf = Object.fromEntries(
        (await target.query('select company_id, id from legal_entities')).map((row) => [row.company_id, row.id]),
      );
      expect(
        after.orders.map(({ company_id, legal_entity_id, placed_by_name }) => ({
          company_id,
          legal_entity_id,
          placed_by_name,
        })),
      ).toEqual([
        { company_id: 11, legal_entity_id: entityOf[11], placed_by_name: 'Анна' },
        { company_id: 11, legal_entity_id: null, placed_by_name: 'Анна' },
        { company_id: 12, legal_entity_id: entityOf[12], placed_by_name: 'ip@example.ru' },
        { company_id: null, legal_entity_id: null, placed_by_name: null },
      ]);
      const [used] = await target.query(`select last_used_at from legal_entities where company_id = 11`);
      expect(used!.last_used_at).toEqual(before.orders[0]!.created_at);
    });

    it('gives the manager a profile for the buyers to see', async () => {
      expect(
        await target.query('select user_id, name, contact_email, phone, messenger_url from staff_profiles'),
      ).toEqual([{ user_id: 15, name: 'boss@example.ru', contact_email: null, phone: null, messenger_url: null }]);
    });
  });
}

describeMigration();
