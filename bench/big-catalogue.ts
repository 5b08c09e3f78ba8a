// Grows a migrated and seeded shop database to a large catalogue with an order history, in plain
// SQL (insert … select … from generate_series), so that it takes seconds on PostgreSQL and PGlite
// alike. Used by bench/growth.ts (100 000 products, 1 000 000 order lines) and by any
// benchmark that needs more goods than the demo catalogue has.
//
// Everything is derived from hashes of row numbers, not random(): two runs build the same shop.
// Each statement starts with a `-- label` line, so a caller that times its `exec` can say which
// step took how long.

export interface GrowthOptions {
  /** Products added beside the demo catalogue, each with three variants in stock (see `variantsPerProduct`). */
  products: number;
  /**
   * How many variants each added product gets, from `min` to `max` as a hash of its id picks (in
   * colours of up to five sizes each); three by default.
   */
  variantsPerProduct?: { min: number; max: number };
  /** Order lines placed by added buyers, spread over about a tenth as many orders. */
  orderLines: number;
}

/** Added products have arts BG-000001, BG-000002, … */
export const ADDED_ART_PREFIX = 'BG-';
/** Added buyers have e-mails buyer-000001@growth.example, … */
const BUYER_DOMAIN = 'growth.example';
/** An order starts on about every tenth line: orders of 1 to ~60 lines, 10 on average. */
const MEAN_LINES_PER_ORDER = 10;
/** Each buyer places about this many orders over the two years of history. */
const ORDERS_PER_BUYER = 20;

const COLLECTIONS = [
  'Весна',
  'Лето',
  'Осень',
  'Зима',
  'Праздник',
  'Классика',
  'Пастель',
  'Радуга',
  'Сказка',
  'Уют',
  'Нежность',
  'Мечта',
];
const COLOURS = [
  'бежевый',
  'коричневый',
  'серый',
  'белый',
  'розовый',
  'голубой',
  'мятный',
  'лавандовый',
  'жёлтый',
  'рыжий',
];
const CITIES = [
  'Москва',
  'Санкт-Петербург',
  'Казань',
  'Екатеринбург',
  'Новосибирск',
  'Нижний Новгород',
  'Краснодар',
  'Самара',
  'Ростов-на-Дону',
  'Воронеж',
];
const STREETS = [
  'ул. Ленина',
  'ул. Садовая',
  'пр-т Мира',
  'ул. Гагарина',
  'ул. Советская',
  'ул. Складская',
  'Промышленная ул.',
  'ул. Победы',
];
const CONTACTS = [
  'Анна Смирнова',
  'Иван Кузнецов',
  'Ольга Попова',
  'Сергей Васильев',
  'Елена Петрова',
  'Дмитрий Соколов',
  'Мария Михайлова',
  'Алексей Новиков',
];
/** Wholesale quantities: single pieces for a trial, otherwise packs and cartons. */
const QUANTITIES = [1, 2, 3, 4, 6, 10, 12, 24];

function sqlArray(values: readonly (string | number)[]): string {
  return `array[${values.map((value) => (typeof value === 'number' ? value : `'${value.replaceAll("'", "''")}'`)).join(', ')}]`;
}

/** A deterministic pseudo-random integer in 0 … 2³¹−1 from an integer expression and a salt. */
function hashed(expression: string, salt: number): string {
  return `(hashint8((${expression})::bigint * 16 + ${salt}) & 2147483647)`;
}

/** The same as a uniform number in [0, 1). */
function uniform(expression: string, salt: number): string {
  return `(${hashed(expression, salt)} / 2147483648.0::float8)`;
}

/** One of `values`, chosen by a hash of `expression`. */
function pick(values: readonly (string | number)[], expression: string, salt: number): string {
  return `(${sqlArray(values)})[1 + ${hashed(expression, salt)} % ${values.length}]`;
}

/** Continues an earlier growth instead of colliding with it: numbering starts after what exists. */
function productsStatement(count: number): string {
  return `-- products
with templates as (
  select name, description, big_description, image, category_id, row_number() over (order by id) - 1 as position
  from products where art not like '${ADDED_ART_PREFIX}%'
), start as (
  select count(*) filter (where art like '${ADDED_ART_PREFIX}%') as numbered,
         count(*) filter (where art not like '${ADDED_ART_PREFIX}%') as templates,
         coalesce(max(curated_rank), 0) as last_rank
  from products
)
insert into products (art, name, description, big_description, image, category_id, curated_rank)
select '${ADDED_ART_PREFIX}' || lpad(number::text, greatest(6, length(number::text)), '0'),
       template.name || ', коллекция «' || (${sqlArray(COLLECTIONS)})[1 + (g - 1) / start.templates % ${COLLECTIONS.length}] || '»'
         || coalesce(' № ' || nullif((g - 1) / (start.templates * ${COLLECTIONS.length}) + 1, 1), ''),
       template.description, template.big_description, template.image, template.category_id,
       -- The shop's curated top stays on top; the added goods are ranked after it, shuffled.
       start.last_rank + 1 + (g::bigint * 7919) % ${count}
from generate_series(1, ${count}) g
cross join start
cross join lateral (select start.numbered + g as number) numbering
join templates template on template.position = (g - 1) % start.templates
order by g`;
}

/** Up to this many sizes per colour: a product's sixth variant is its second colour's first size. */
const SIZES_PER_COLOUR = 5;

/**
 * `min` to `max` variants (three by default: three sizes of one colour) per added product that has
 * none yet, all in stock: sizes grow from the product's smallest, prices with them.
 */
function variantsStatement({ min, max }: { min: number; max: number }): string {
  return `-- variants
insert into variants (product_id, color, size, price, stock)
select p.id,
       (${sqlArray(COLOURS)})[1 + (${hashed('p.id', 1)} + step / ${SIZES_PER_COLOUR}) % ${COLOURS.length}],
       sized.size,
       round(shape.base_price * power(sized.size::float8 / shape.smallest, 1.25) / 10) * 10 - 1,
       5 + ${hashed('p.id * 3 + step', 2)} % 496
from products p
cross join lateral generate_series(0, ${min - 1} + ${hashed('p.id', 16)} % ${max - min + 1}) step
cross join lateral (select (array[15, 20, 25, 30, 40])[1 + ${hashed('p.id', 3)} % 5] as smallest,
                           349 + 50 * (${hashed('p.id', 4)} % 40) as base_price) shape
cross join lateral (select round(shape.smallest * (1 + 0.5 * (step % ${SIZES_PER_COLOUR})))::int as size) sized
where p.art like '${ADDED_ART_PREFIX}%' and not exists (select 1 from variants v where v.product_id = p.id)`;
}

function buyersStatement(count: number): string {
  return `-- buyers
insert into users (email, password_hash, created_at)
select 'buyer-' || lpad(number::text, greatest(6, length(number::text)), '0') || '@${BUYER_DOMAIN}',
       -- Not a scrypt hash, so nobody can log in as an invented buyer.
       'none',
       now() - interval '800 days'
from generate_series(1, ${count}) g
cross join (select count(*) as numbered from users where email like '%@${BUYER_DOMAIN}') start
cross join lateral (select start.numbered + g as number) numbering`;
}

/**
 * Orders and their lines in one statement: the lines are made first (so each order's total is
 * theirs), the orders get explicit ids above the existing ones, and the units sold are added to
 * the products' `units_ordered` as the order transaction would, cancelled orders excluded.
 */
function ordersStatement(lineCount: number): string {
  const skew = uniform('numbered.line', 6);
  return `-- orders and order lines
with buyers as (
  select id, row_number() over (order by id) - 1 as position from users where email like '%@${BUYER_DOMAIN}'
), buyer_count as (
  select count(*) as total from buyers
), catalogue as (
  -- Popularity rank: the variants of one product are neighbours, products shuffled by a hash.
  select v.id as variant_id, v.product_id, p.name, v.color, v.size, v.price,
         row_number() over (order by hashint4(v.product_id), v.product_id, v.id) - 1 as popularity
  from variants v join products p on p.id = v.product_id
), catalogue_size as (
  select count(*) as total from catalogue
), numbered as (
  select g as line, sum(case when g = 1 or ${hashed('g', 5)} % ${MEAN_LINES_PER_ORDER} = 0 then 1 else 0 end) over (order by g) as order_number
  from generate_series(1, ${lineCount}) g
), first_id as (
  select coalesce(max(id), 0) as id from orders
), lines as (
  select first_id.id + numbered.order_number as order_id, numbered.order_number,
         item.variant_id, item.product_id, item.name, item.color, item.size, item.price,
         ${pick(QUANTITIES, 'numbered.line', 7)} as quantity
  from numbered
  cross join first_id
  cross join catalogue_size
  -- u² makes a long tail: of 100 000 products the most popular is in about one line in 300,
  -- the least popular in one in 200 000.
  join catalogue item on item.popularity = floor(catalogue_size.total * power(${skew}, 2))::bigint
), order_count as (
  select max(order_number) as total from numbered
), placed as (
  select lines.order_id, lines.order_number, sum(lines.price * lines.quantity) as total_price,
         case
           when ${hashed('lines.order_number', 8)} % 100 < 5 then 'Отменён'
           when lines.order_number > order_count.total * 0.995 then 'Создан'
           when lines.order_number > order_count.total * 0.99 then 'Ожидает оплаты'
           when lines.order_number > order_count.total * 0.98 then 'Оплачен'
           when lines.order_number > order_count.total * 0.96 then 'Отправлен'
           else 'Доставлен'
         end as status,
         -- Two years of history, oldest first, as the ids go.
         now() - interval '730 days' * (1 - lines.order_number::float / order_count.total) as placed_at
  from lines cross join order_count
  group by lines.order_id, lines.order_number, order_count.total
), new_orders as (
  insert into orders (id, user_id, status, address, contact_name, contact_phone, company_name, company_inn, company_kpp, total_price, created_at, updated_at)
  overriding system value
  select placed.order_id, buyer.id, placed.status,
         'Россия, г. ' || ${pick(CITIES, 'buyer.id', 9)} || ', '
           || ${pick(STREETS, 'buyer.id', 10)} || ', д. ' || (1 + ${hashed('buyer.id', 11)} % 120),
         ${pick(CONTACTS, 'buyer.id', 12)},
         '+7 9' || lpad((${hashed('buyer.id', 13)} % 1000000000)::text, 9, '0'),
         case when buyer.id % 3 = 0 then 'ИП ' || ${pick(CONTACTS, 'buyer.id', 12)} end,
         case when buyer.id % 3 = 0 then lpad((${hashed('buyer.id', 14)}::bigint * 433)::text, 12, '7') end,
         null,
         placed.total_price, placed.placed_at, placed.placed_at
  from placed
  cross join buyer_count
  -- Some buyers order far more often than others.
  join buyers buyer on buyer.position = floor(buyer_count.total * power(${uniform('placed.order_number', 15)}, 2))::bigint
), sold as (
  update products set units_ordered = products.units_ordered + units_sold.units
  from (
    select lines.product_id, sum(lines.quantity) as units
    from lines join placed on placed.order_id = lines.order_id
    where placed.status <> 'Отменён'
    group by lines.product_id
  ) units_sold
  where products.id = units_sold.product_id
)
insert into order_lines (order_id, product_id, variant_id, product_name, color, size, price, quantity)
select order_id, product_id, variant_id, name, color, size, price, quantity from lines`;
}

/** Grows the catalogue (and, when `orderLines` > 0, the order history) of a seeded shop database. */
export async function growCatalogue(exec: (sql: string) => Promise<unknown>, options: GrowthOptions): Promise<void> {
  const variantsPerProduct = options.variantsPerProduct ?? { min: 3, max: 3 };
  const counts = { products: options.products, orderLines: options.orderLines, ...variantsPerProduct };
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`growCatalogue: ${name} must be a whole number ≥ 0, not ${value}`);
  }
  const mostVariants = COLOURS.length * SIZES_PER_COLOUR;
  if (
    variantsPerProduct.min < 1 ||
    variantsPerProduct.max < variantsPerProduct.min ||
    variantsPerProduct.max > mostVariants
  )
    throw new Error(`growCatalogue: variantsPerProduct must be 1 ≤ min ≤ max ≤ ${mostVariants}`);
  if (options.products > 0) {
    await exec(productsStatement(options.products));
    await exec(variantsStatement(variantsPerProduct));
  }
  if (options.orderLines > 0) {
    const orders = Math.ceil(options.orderLines / MEAN_LINES_PER_ORDER);
    await exec(buyersStatement(Math.ceil(orders / ORDERS_PER_BUYER)));
    await exec(ordersStatement(options.orderLines));
    // The orders were given their ids; the identity continues after them.
    await exec(`-- order ids\nselect setval(pg_get_serial_sequence('orders', 'id'), (select max(id) from orders))`);
  }
  // As PostgreSQL's autovacuum would have done long before a shop grew this big: statistics for
  // the planner and a visibility map for index-only scans. (PGlite has no autovacuum.)
  await exec('-- vacuum analyze\nvacuum analyze products, variants, users, orders, order_lines');
}
