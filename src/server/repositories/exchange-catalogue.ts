// The 1С catalogue exchange's SQL: a file's progress (exchange_files), its staging, and applying a
// staged file to the catalogue with one statement per table, however many rows it has.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { announceCatalogueChange } from '../db/notifications';
import type { StagedOffer, StagedProduct } from '../domain/exchange-mapping';

// Any constant shared by all processes of this shop: one catalogue exchange applies at a time.
const EXCHANGE_LOCK_KEY = 7_130_512_040;

export type FileStage = 'received' | 'staging' | 'staged' | 'applying' | 'applied' | 'failed';

const rowsOf = async <T>(db: Queryable, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const countOf = async (db: Queryable, query: SQL): Promise<number> =>
  Number((await rowsOf<{ n: number | string }>(db, query))[0]?.n ?? 0);
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
/** A jsonb field that may hold null, as an array to expand. */
const arrayOf = (field: SQL) => sql`jsonb_array_elements(coalesce(nullif(${field}, 'null'::jsonb), '[]'::jsonb))`;

export function createExchangeCatalogueRepository(db: Queryable) {
  return {
    /** The file's stage, its row made (received) when 1С's `import` names a file unpacked from a zip. */
    async fileState(runId: string, name: string): Promise<{ stage: FileStage; failure: string | null }> {
      await db.execute(
        sql`insert into exchange_files (run_id, name) values (${runId}, ${name}) on conflict do nothing`,
      );
      const [row] = await rowsOf<{ stage: FileStage; failure: string | null }>(
        db,
        sql`select stage, failure from exchange_files where run_id = ${runId} and name = ${name}`,
      );
      return row!;
    },

    /**
     * Takes the file's work, atomically, so two processes never run it: a received file to stage, a
     * staged one to apply, or either left with a heartbeat older than `staleSeconds` (its process
     * died) to start again. Null: someone else is at it.
     */
    async claim(runId: string, name: string, staleSeconds: number): Promise<'staging' | 'applying' | null> {
      const [row] = await rowsOf<{ stage: 'staging' | 'applying' }>(
        db,
        sql`update exchange_files
            set stage = case when stage in ('received', 'staging') then 'staging' else 'applying' end,
                heartbeat_at = now(), failure = null
            where run_id = ${runId} and name = ${name}
              and (stage in ('received', 'staged')
                   or (stage in ('staging', 'applying')
                       and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${staleSeconds}))))
            returning stage`,
      );
      return row?.stage ?? null;
    },

    /** Never waits: a row another transaction holds (the apply's last update) skips this beat. */
    async heartbeat(runId: string, name: string): Promise<void> {
      await db.execute(sql`
        update exchange_files set heartbeat_at = now()
        where (run_id, name) in (select run_id, name from exchange_files
                                 where run_id = ${runId} and name = ${name} for update skip locked)`);
    },

    async setStage(runId: string, name: string, stage: FileStage): Promise<void> {
      await db.execute(
        sql`update exchange_files set stage = ${stage}, heartbeat_at = now() where run_id = ${runId} and name = ${name}`,
      );
      // The exchange is under way again (1С never says which file is its last).
      await db.execute(
        sql`update exchange_runs set status = 'importing', finished_at = null where id = ${runId} and status <> 'failed'`,
      );
    },

    /** The file applied, in the applying transaction, which announces the catalogue's change (once, at commit). */
    async markApplied(runId: string, name: string): Promise<void> {
      await db.execute(
        sql`update exchange_files set stage = 'applied', heartbeat_at = now() where run_id = ${runId} and name = ${name}`,
      );
      // Done with everything 1С has asked for so far: the back office's log shows it finished.
      await db.execute(
        sql`update exchange_runs set status = 'done', finished_at = now() where id = ${runId} and status <> 'failed'`,
      );
      await announceCatalogueChange(db);
    },

    async fail(runId: string, name: string, reason: string): Promise<void> {
      await db.execute(
        sql`update exchange_files set stage = 'failed', failure = ${reason} where run_id = ${runId} and name = ${name}`,
      );
      await db.execute(
        sql`update exchange_runs set status = 'failed', failure = ${reason}, finished_at = now() where id = ${runId}`,
      );
    },

    /** Drops what an earlier attempt staged of the file, so staging it again starts clean. */
    async clearStaged(runId: string, file: string): Promise<void> {
      await db.execute(sql`delete from exchange_staged_products where run_id = ${runId} and file = ${file}`);
      await db.execute(sql`delete from exchange_staged_offers where run_id = ${runId} and file = ${file}`);
    },

    async stageGroups(
      runId: string,
      groups: { externalId: string; name: string; parentId: string | null; path: string[] }[],
    ): Promise<void> {
      if (groups.length === 0) return;
      await db.execute(sql`
        insert into exchange_staged_groups (run_id, external_id, name, parent_id, path)
        select ${runId}::uuid, g.external_id, g.name, g.parent_id, array(select jsonb_array_elements_text(g.path))
        from jsonb_to_recordset(${json(
          groups.map((group) => ({
            external_id: group.externalId,
            name: group.name,
            parent_id: group.parentId,
            path: group.path,
          })),
        )}) as g(external_id text, name text, parent_id text, path jsonb)
        on conflict (run_id, external_id) do update
          set name = excluded.name, parent_id = excluded.parent_id, path = excluded.path`);
    },

    async stageProducts(runId: string, file: string, rows: { externalId: string; record: StagedProduct }[]) {
      if (rows.length === 0) return;
      await db.execute(sql`
        insert into exchange_staged_products (run_id, file, external_id, record)
        select ${runId}::uuid, ${file}, r.external_id, r.record
        from jsonb_to_recordset(${json(rows.map((row) => ({ external_id: row.externalId, record: row.record })))})
          as r(external_id text, record jsonb)
        on conflict (run_id, external_id) do update set file = excluded.file, record = excluded.record`);
    },

    async stageOffers(runId: string, file: string, rows: { externalId: string; record: StagedOffer }[]) {
      if (rows.length === 0) return;
      await db.execute(sql`
        insert into exchange_staged_offers (run_id, file, external_id, record)
        select ${runId}::uuid, ${file}, r.external_id, r.record
        from jsonb_to_recordset(${json(rows.map((row) => ({ external_id: row.externalId, record: row.record })))})
          as r(external_id text, record jsonb)
        on conflict (run_id, file, external_id) do update set record = excluded.record`);
    },

    /**
     * 1С's price types as last named: a new one (or one no manager mapped) named like a shop type
     * (case aside) fills it; a manager's mapping is never changed; no shop type is ever created.
     */
    async upsertPriceTypes(types: { id: string; name: string }[]): Promise<void> {
      if (types.length === 0) return;
      await db.execute(sql`
        insert into exchange_price_types (external_id, name, price_type_id, last_seen_at)
        select g.id, g.name, (select pt.id from price_types pt where lower(pt.name) = lower(g.name)), now()
        from jsonb_to_recordset(${json(types)}) as g(id text, name text)
        on conflict (external_id) do update set
          name = excluded.name, last_seen_at = now(),
          price_type_id = case when exchange_price_types.mapped_by_manager then exchange_price_types.price_type_id
                               else coalesce(exchange_price_types.price_type_id, excluded.price_type_id) end`);
    },

    /** 1С's warehouses as last named; a new one counts in the stock (used) until a manager says otherwise. */
    async upsertWarehouses(warehouses: { id: string; name: string }[]): Promise<void> {
      if (warehouses.length === 0) return;
      await db.execute(sql`
        insert into exchange_warehouses (external_id, name, last_seen_at)
        select w.id, w.name, now() from jsonb_to_recordset(${json(warehouses)}) as w(id text, name text)
        on conflict (external_id) do update set name = excluded.name, last_seen_at = now()`);
    },

    /**
     * Waits for any other catalogue exchange's apply, then says whether this file is still to apply.
     * The advisory lock alone guards it (only an apply, under it, moves a file from applying): a
     * row lock on the file would hold its heartbeat, and with it a pooled connection every beat,
     * for the whole of a long apply.
     */
    async lockForApply(runId: string, name: string): Promise<boolean> {
      await db.execute(sql`select pg_advisory_xact_lock(${EXCHANGE_LOCK_KEY})`);
      const [row] = await rowsOf<{ stage: FileStage }>(
        db,
        sql`select stage from exchange_files where run_id = ${runId} and name = ${name}`,
      );
      return row?.stage === 'applying';
    },

    async stagedGroups(runId: string, file: string) {
      return rowsOf<{ externalId: string; name: string; parentId: string | null; path: string[] }>(
        db,
        sql`select g.external_id as "externalId", g.name, g.parent_id as "parentId", g.path
            from exchange_staged_groups g
            where g.run_id = ${runId}
              and exists (select 1 from exchange_staged_products s
                          where s.run_id = ${runId} and s.file = ${file} and s.record->>'groupId' = g.external_id)
            order by g.path`,
      );
    },

    async categoryHolders() {
      return rowsOf<{ name: string; externalId: string | null }>(
        db,
        sql`select name, external_id as "externalId" from categories`,
      );
    },

    /** A category per named group, by its external id: renamed when its name changed, else added last. */
    async upsertCategories(named: { externalId: string; name: string }[]) {
      if (named.length === 0) return { created: 0, updated: 0 };
      const given = sql`jsonb_to_recordset(${json(named.map((row) => ({ external_id: row.externalId, name: row.name })))}) as g(external_id text, name text)`;
      const updated = await countOf(
        db,
        sql`with u as (update categories c set name = g.name from ${given}
                       where c.external_id = g.external_id and c.name <> g.name returning 1)
            select count(*) as n from u`,
      );
      const created = await countOf(
        db,
        sql`with i as (insert into categories (name, position, external_id)
                       select g.name, (select coalesce(max(position), 0) from categories)
                                      + row_number() over (order by g.external_id), g.external_id
                       from ${given}
                       where not exists (select 1 from categories c where c.external_id = g.external_id)
                       returning 1)
            select count(*) as n from i`,
      );
      return { created, updated };
    },

    /**
     * Applies a staged import.xml: products matched by external id (a site product without one linked
     * by its article when 1С's is new), rows refused with their reason, new products hidden until
     * their offers arrive, and in a full file (hideMissing) 1С's products it omits hidden.
     */
    async applyProducts(runId: string, file: string, options: { placeholderImage: string; hideMissing: boolean }) {
      await db.execute(sql`
        create temp table exchange_x_products on commit drop as
        select s.external_id, s.record->>'article' as art, s.record->>'name' as name,
               s.record->>'description' as description, (s.record->>'line')::int as line,
               (s.record->>'deleted')::boolean as deleted, s.record->>'image' as image,
               s.record->>'pictureProblem' as picture_problem, (s.record->>'changesOnly')::boolean as changes_only,
               case when (s.record->>'unitCoefficient')::numeric > 1
                    then round((s.record->>'unitCoefficient')::numeric)::int end as coefficient,
               c.id as category_id, p.id as product_id, false as linked, null::text as problem
        from exchange_staged_products s
        left join products p on p.external_id = s.external_id
        left join categories c on c.external_id = s.record->>'groupId'
        where s.run_id = ${runId} and s.file = ${file}`);
      await db.execute(sql`update exchange_x_products set problem = 'пустой артикул' where art = ''`);
      await db.execute(sql`
        update exchange_x_products x set problem = 'артикул «' || x.art || '» повторяется в файле'
        from (select external_id, row_number() over (partition by art order by line nulls last, external_id) as n
              from exchange_x_products where problem is null) d
        where d.external_id = x.external_id and d.n > 1`);
      // Once: 1С's product is new and a site product of the same article has no external id yet.
      await db.execute(sql`
        update exchange_x_products x set product_id = p.id, linked = true
        from products p
        where x.product_id is null and x.problem is null and p.external_id is null and p.art = x.art`);
      await db.execute(sql`
        update exchange_x_products x set problem = 'артикул «' || x.art || '» уже у другого товара сайта'
        where x.problem is null
          and exists (select 1 from products p where p.art = x.art and p.id is distinct from x.product_id)`);
      await db.execute(sql`
        update exchange_x_products set problem = 'нет группы: товар без категории не создаётся'
        where problem is null and product_id is null and category_id is null and not deleted`);
      const errors = await rowsOf<{ line: number | null; problem: string }>(
        db,
        sql`select line, coalesce(problem, picture_problem) as problem from exchange_x_products
            where problem is not null or picture_problem is not null order by line nulls last, external_id`,
      );
      const linked = await rowsOf<{ entry: string }>(
        db,
        sql`select art || ' → ' || external_id as entry from exchange_x_products where linked and problem is null order by art`,
      );
      const hidden = await countOf(
        db,
        sql`with h as (update products p set hidden_at = now() from exchange_x_products x
                       where p.id = x.product_id and x.problem is null and x.deleted and p.hidden_at is null
                       returning 1)
            select count(*) as n from h`,
      );
      const updated = await countOf(
        db,
        sql`with n as (
              select p.id, x.art, x.name, nullif(x.description, '') as description,
                     coalesce(x.category_id, p.category_id) as category_id, x.external_id,
                     coalesce(x.image, p.image) as image, coalesce(x.coefficient, p.multiple) as multiple,
                     case when x.coefficient is null then p.min_quantity
                          else greatest(x.coefficient, ceil(p.min_quantity::numeric / x.coefficient)::int * x.coefficient)
                     end as min_quantity
              from exchange_x_products x join products p on p.id = x.product_id
              where x.problem is null),
            u as (update products p
                  set art = n.art, name = n.name, description = n.description, category_id = n.category_id,
                      external_id = n.external_id, image = n.image, multiple = n.multiple, min_quantity = n.min_quantity
                  from n
                  where p.id = n.id
                    and (p.art, p.name, p.description, p.category_id, p.external_id, p.image, p.multiple, p.min_quantity)
                        is distinct from
                        (n.art, n.name, n.description, n.category_id, n.external_id, n.image, n.multiple, n.min_quantity)
                  returning 1)
            select count(*) as n from u`,
      );
      const created = await countOf(
        db,
        sql`with i as (
              insert into products (art, name, description, image, category_id, curated_rank, external_id,
                                    hidden_at, multiple, min_quantity)
              select x.art, x.name, nullif(x.description, ''), coalesce(x.image, ${options.placeholderImage}),
                     x.category_id,
                     (select coalesce(max(curated_rank), 0) from products) + row_number() over (order by x.line, x.external_id),
                     x.external_id, now(), coalesce(x.coefficient, 1), coalesce(x.coefficient, 1)
              from exchange_x_products x
              where x.product_id is null and x.problem is null and not x.deleted
              returning 1)
            select count(*) as n from i`,
      );
      const full = await countOf(db, sql`select count(*) as n from exchange_x_products where not changes_only`);
      const missingHidden =
        options.hideMissing && full > 0
          ? await countOf(
              db,
              sql`with h as (update products p set hidden_at = now()
                             where p.external_id is not null and p.hidden_at is null
                               and not exists (select 1 from exchange_staged_products s
                                               where s.run_id = ${runId} and s.external_id = p.external_id)
                             returning 1)
                  select count(*) as n from h`,
            )
          : 0;
      return {
        errors,
        linked: linked.map((row) => row.entry),
        created,
        updated,
        hidden: hidden + missingHidden,
      };
    },

    /**
     * Applies a staged offers, prices or rests file: variants matched by external id (never by colour
     * and size), created under their product (unless `createVariants` is false), prices of the default
     * type on the variant and of the other mapped types in variant_prices, stock from the used
     * warehouses less the pieces of orders 1С has not confirmed, barcodes, cartons.
     */
    async applyOffers(runId: string, file: string, options: { createVariants: boolean }) {
      await db.execute(sql`
        create temp table exchange_x_offers on commit drop as
        select s.external_id, s.record as r, (s.record->>'line')::int as line, p.id as product_id, v.id as variant_id,
               s.record->>'color' as color, (s.record->>'size')::int as size,
               nullif(s.record->>'barcode', '') as barcode, (s.record->>'deleted')::boolean as deleted,
               case when (s.record->>'unitCoefficient')::numeric > 1
                    then round((s.record->>'unitCoefficient')::numeric)::int end as coefficient,
               (select (e->>'price')::numeric
                from ${arrayOf(sql`s.record->'prices'`)} e
                join exchange_price_types ept on ept.external_id = e->>'priceTypeId'
                join price_types pt on pt.id = ept.price_type_id and pt.is_default
                limit 1) as default_price,
               case when jsonb_array_length(coalesce(nullif(s.record->'warehouses', 'null'::jsonb), '[]'::jsonb)) > 0
                    then (select coalesce(sum((w->>'quantity')::numeric), 0)
                          from ${arrayOf(sql`s.record->'warehouses'`)} w
                          join exchange_warehouses ew on ew.external_id = w->>'warehouseId' and ew.used)
                    else (s.record->>'quantity')::numeric end as quantity,
               null::text as problem, false as adopted
        from exchange_staged_offers s
        left join products p on p.external_id = s.record->>'productId'
        left join variants v on v.external_id = s.external_id
        where s.run_id = ${runId} and s.file = ${file}`);
      await db.execute(sql`
        update exchange_x_offers set problem = 'товар «' || (r->>'productId') || '» не найден на сайте'
        where product_id is null`);
      await db.execute(
        options.createVariants
          ? sql`update exchange_x_offers set problem = 'нет цвета или размера в характеристиках: вариант не создан'
                where problem is null and variant_id is null and (color is null or size is null)`
          : sql`update exchange_x_offers set problem = 'предложение не найдено на сайте'
                where problem is null and variant_id is null`,
      );
      await db.execute(sql`
        update exchange_x_offers x set color = coalesce(x.color, v.color), size = coalesce(x.size, v.size)
        from variants v where v.id = x.variant_id`);
      // A product linked by its article on the first exchange keeps its variants: an offer of its
      // colour and size takes the site's variant once (its Ид kept), as the product took the article.
      if (options.createVariants) {
        await db.execute(sql`
          update exchange_x_offers x set variant_id = v.id, adopted = true
          from variants v
          where x.problem is null and x.variant_id is null and v.product_id = x.product_id
            and v.external_id is null and v.color = x.color and v.size = x.size`);
      }
      await db.execute(sql`
        update exchange_x_offers x set problem = 'цвет «' || x.color || '» и размер ' || x.size || ' уже у другого варианта товара'
        from (select external_id, row_number() over (partition by product_id, color, size order by line nulls last, external_id) as n
              from exchange_x_offers where problem is null) d
        where d.external_id = x.external_id
          and (d.n > 1 or exists (select 1 from variants v
                                  where v.product_id = x.product_id and v.color = x.color and v.size = x.size
                                    and v.id is distinct from x.variant_id
                                    and not exists (select 1 from exchange_x_offers o
                                                    where o.variant_id = v.id and o.problem is null)))`);
      const errors = await rowsOf<{ line: number | null; problem: string }>(
        db,
        sql`select line, problem from exchange_x_offers where problem is not null order by line nulls last, external_id`,
      );
      const notes = await rowsOf<{ name: string }>(
        db,
        sql`select distinct ept.name from exchange_x_offers x, ${arrayOf(sql`x.r->'prices'`)} e
            join exchange_price_types ept on ept.external_id = e->>'priceTypeId' and ept.price_type_id is not null
            where x.problem is null and (e->>'taxIncluded')::boolean = false order by ept.name`,
      );
      // The products without a priced variant yet: hidden because their offers had not arrived.
      await db.execute(sql`
        create temp table exchange_x_priceless on commit drop as
        select distinct x.product_id from exchange_x_offers x
        where x.problem is null
          and not exists (select 1 from variants v where v.product_id = x.product_id and v.price > 0)`);
      const held = sql`(select ol.variant_id, sum(ol.quantity) as pieces
                        from order_lines ol join orders o on o.id = ol.order_id
                        where o.exchange_confirmed_at is null and o.status <> 'Отменён'
                        group by ol.variant_id)`;
      const linked = await countOf(
        db,
        sql`with l as (update variants v set external_id = x.external_id from exchange_x_offers x
                       where x.adopted and x.problem is null and v.id = x.variant_id
                       returning 1)
            select count(*) as n from l`,
      );
      const updated = await countOf(
        db,
        sql`with n as (
              select v.id, x.color, x.size, coalesce(x.default_price, v.price) as price,
                     case when x.deleted then 0
                          when x.quantity is null then v.stock
                          else greatest(0, floor(x.quantity)::int - coalesce(h.pieces, 0)::int) end as stock,
                     coalesce(x.barcode, v.barcode) as barcode
              from exchange_x_offers x join variants v on v.id = x.variant_id
              left join ${held} h on h.variant_id = v.id
              where x.problem is null),
            u as (update variants v set color = n.color, size = n.size, price = n.price, stock = n.stock, barcode = n.barcode
                  from n where v.id = n.id
                    and (v.color, v.size, v.price, v.stock, v.barcode) is distinct from (n.color, n.size, n.price, n.stock, n.barcode)
                  returning 1)
            select count(*) as n from u`,
      );
      const created = await countOf(
        db,
        sql`with i as (
              insert into variants (product_id, color, size, price, stock, external_id, barcode)
              select x.product_id, x.color, x.size, coalesce(x.default_price, 0),
                     case when x.deleted or x.quantity is null then 0 else greatest(0, floor(x.quantity)::int) end,
                     x.external_id, x.barcode
              from exchange_x_offers x where x.variant_id is null and x.problem is null
              returning 1)
            select count(*) as n from i`,
      );
      await db.execute(sql`
        update exchange_x_offers x set variant_id = v.id from variants v
        where x.variant_id is null and x.problem is null and v.external_id = x.external_id`);
      const pricesSet = await countOf(
        db,
        sql`with given as (
              select distinct on (x.variant_id, ept.price_type_id) x.variant_id, ept.price_type_id, (e->>'price')::numeric as price
              from exchange_x_offers x, ${arrayOf(sql`x.r->'prices'`)} e
              join exchange_price_types ept on ept.external_id = e->>'priceTypeId'
              join price_types pt on pt.id = ept.price_type_id and not pt.is_default
              where x.problem is null and (e->>'price')::numeric > 0
              order by x.variant_id, ept.price_type_id),
            u as (insert into variant_prices (variant_id, price_type_id, price)
                  select variant_id, price_type_id, price from given
                  on conflict (variant_id, price_type_id) do update set price = excluded.price
                  where variant_prices.price is distinct from excluded.price
                  returning 1)
            select count(*) as n from u`,
      );
      await db.execute(sql`
        update products p set multiple = k.coefficient,
               min_quantity = greatest(k.coefficient, ceil(p.min_quantity::numeric / k.coefficient)::int * k.coefficient)
        from (select product_id, max(coefficient) as coefficient from exchange_x_offers
              where problem is null and coefficient is not null group by product_id) k
        where p.id = k.product_id and (p.multiple <> k.coefficient or p.min_quantity % k.coefficient <> 0)`);
      await db.execute(sql`
        update products p set hidden_at = null from exchange_x_priceless pl
        where p.id = pl.product_id and p.hidden_at is not null and p.external_id is not null
          and exists (select 1 from variants v where v.product_id = p.id and v.price > 0)
          and not exists (select 1 from exchange_staged_products s
                          where s.run_id = ${runId} and s.external_id = p.external_id
                            and (s.record->>'deleted')::boolean)`);
      return { errors, taxNotes: notes.map((row) => row.name), created, updated, linked, pricesSet };
    },

    async runStats(runId: string) {
      const [row] = await rowsOf<{ stats: Record<string, unknown> }>(
        db,
        sql`select stats from exchange_runs where id = ${runId} for update`,
      );
      return row?.stats ?? {};
    },

    async saveStats(runId: string, stats: unknown): Promise<void> {
      await db.execute(sql`update exchange_runs set stats = ${json(stats)} where id = ${runId}`);
    },
  };
}

export type ExchangeCatalogueRepository = ReturnType<typeof createExchangeCatalogueRepository>;
