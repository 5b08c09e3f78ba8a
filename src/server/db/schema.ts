import { sql, type SQL } from 'drizzle-orm';
import { USER_ROLES } from '../../shared/user-roles';
import { COMPANY_ROLES, LEGAL_ENTITY_KINDS } from '../../shared/company';
import { CONFORMITY_DOCUMENT_KINDS, type ProductCardFields, type VariantCardFields } from '../../shared/product-card';
import { LOOK_ALIKE_CYRILLIC, LOOK_ALIKE_LATIN } from '../../shared/article-key';
import type { Packaging } from '../../shared/pricing';
import type { OneCOrderDocument, ExchangeRunStats } from '../../shared/exchange';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Money is numeric(12,2) in the database: exact kopecks, converted to JSON numbers only at the edge.
const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// node-postgres answers bytea with a Buffer, PGlite with a Uint8Array: both become a Buffer here.
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
// Hidden products stay in the database for the orders and carts that hold them; the storefront's
// indexes cover only the visible ones, which every storefront query asks for.
const visible = sql`hidden_at is null`;
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Values the server generates once and shares between its processes (the JWT secret). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // Stored trimmed and lower-cased, so the unique index makes e-mails case-insensitive.
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    // Managers are made from the command line (npm run users); everyone who signs up is a buyer.
    role: text('role', { enum: USER_ROLES }).notNull().default('buyer'),
    createdAt: createdAt(),
    // When the buyer ticked «Я согласен на обработку персональных данных» at sign-up (152-ФЗ);
    // null for accounts made before the consent was asked for, and for managers made from the CLI.
    personalDataConsentAt: timestamp('personal_data_consent_at', { withTimezone: true }),
    // Raised by a password change or reset: a sign-in whose password was checked against the
    // version before is granted no session (services/sessions.ts).
    sessionVersion: integer('session_version').notNull().default(0),
    // When the buyer opened the link of the confirmation letter (REQUIRE_EMAIL_CONFIRMATION): a
    // buyer orders only after it. Migration 0025 set it for accounts that already had orders, and managers.
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    // The company the account works for, and its role there (src/shared/company.ts). Every account
    // has one, a manager's too (managers shop in the storefront as well); a company goes only with
    // its last member (services/companies.ts).
    companyId: integer('company_id')
      .notNull()
      .references((): AnyPgColumn => companies.id, { onDelete: 'restrict' }),
    companyRole: text('company_role', { enum: COMPANY_ROLES }).notNull(),
    // Granted by `npm run users -- grant-exchange` or in the back office: the account 1С signs in
    // with at /1c_exchange (HTTP Basic). Apart from the role, so that a dedicated account holds it
    // without the back office (the password is typed into 1С, read by whoever administers 1С).
    exchangeAccess: boolean('exchange_access').notNull().default(false),
  },
  (table) => [
    check('users_role_known', sql`${table.role} in ('buyer', 'manager')`),
    check('users_company_role_known', sql`${table.companyRole} in ('owner', 'purchaser', 'accountant')`),
    index('users_company_idx').on(table.companyId),
  ],
);

/**
 * The buyer's side (контрагент): a sign-up makes a company of one, its owner; an owner invites
 * employees (users.company_id, company_role). Orders, delivery addresses, legal entities, the
 * buyer limits and the standing are the company's; a cart stays its employee's.
 */
export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    // Set by a manager: the employees sign in and read their orders, but no order is taken.
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    // When the first of the company's orders was paid (set by the status change to «Оплачен», never
    // cleared) and when a manager marked the company as trusted (cleared by taking it back). Either
    // makes it proven: no share of the stock, MAX_UNPAID_ORDERS_TRUSTED, the long reservation.
    // Columns, not a look at the orders, so that placing an order reads them with the company's row.
    firstPaidAt: timestamp('first_paid_at', { withTimezone: true }),
    trustedAt: timestamp('trusted_at', { withTimezone: true }),
    // The shop's manager who looks after the company: named to its employees and in every letter,
    // and the one the new-order letters go to.
    managerId: integer('manager_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    // The legal entity the checkout offers first (GET/PUT /api/v1/requisites).
    defaultLegalEntityId: uuid('default_legal_entity_id').references((): AnyPgColumn => legalEntities.id, {
      onDelete: 'set null',
    }),
    // The price type its employees see and order at (set in the back office); null: the default
    // type, whichever it is. A type a company is assigned cannot be deleted (restrict).
    priceTypeId: integer('price_type_id').references((): AnyPgColumn => priceTypes.id, { onDelete: 'restrict' }),
  },
  (table) => [
    index('companies_manager_idx').on(table.managerId),
    index('companies_price_type_idx').on(table.priceTypeId),
  ],
);

/**
 * The supplier's price types («Опт», «Крупный опт», «Рекомендованная розничная»). The default one's
 * prices are variants.price (what visitors and companies without a type see, and every reader
 * before price types); the others' are variant_prices, a variant without one there selling at the
 * default type's price and tiers. The RRP type is shown beside the buyer's price, never sold at.
 */
export const priceTypes = pgTable(
  'price_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // Given once, from the first name, and never changed: a renamed type's price-list column and
    // 1С mapping still find it.
    code: text('code').notNull().unique(),
    name: text('name').notNull().unique(),
    isDefault: boolean('is_default').notNull().default(false),
    isRrp: boolean('is_rrp').notNull().default(false),
    // An order below it is refused (0: no minimum).
    minOrderSum: money('min_order_sum').notNull().default('0'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('price_types_one_default_idx')
      .on(table.isDefault)
      .where(sql`${table.isDefault}`),
    uniqueIndex('price_types_one_rrp_idx')
      .on(table.isRrp)
      .where(sql`${table.isRrp}`),
    check('price_types_default_not_rrp', sql`not (${table.isDefault} and ${table.isRrp})`),
    check('price_types_min_order_sum_non_negative', sql`${table.minOrderSum} >= 0`),
  ],
);

/**
 * The company's legal entities (an ИП, an ООО): whom orders and invoices are made out to. The id is
 * a UUID that never changes: the 1С exchange sends it as the Контрагент's Ид. The same ИНН and КПП
 * may be in two companies (branches, a reseller's several shops): the back office warns of it.
 */
export const legalEntities = pgTable(
  'legal_entities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LEGAL_ENTITY_KINDS }).notNull(),
    name: text('name').notNull(),
    inn: text('inn').notNull(),
    kpp: text('kpp'),
    ogrn: text('ogrn'),
    // The registered address, printed on the invoice; '' for the entities made from the requisites
    // of the shop before companies, which had none.
    address: text('address').notNull().default(''),
    bankName: text('bank_name'),
    bik: text('bik'),
    account: text('account'),
    corrAccount: text('corr_account'),
    createdAt: createdAt(),
    // Set by every order made out to it: the checkout offers the last used first.
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    // Set when the company deletes it: no new order is made out to it, and it leaves the company's
    // lists, but the orders made out to it keep naming it (and 1С its Ид).
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (table) => [
    index('legal_entities_company_idx').on(table.companyId),
    index('legal_entities_inn_idx').on(table.inn, table.kpp),
    check('legal_entities_kind_known', sql`${table.kind} in ('ip', 'org')`),
  ],
);

/**
 * The owner's invitations to join the company: the token goes only into the letter (its link
 * opens /invite#<token>), so only its SHA-256 is kept; it works once, for INVITATION_TTL_DAYS.
 */
export const companyInvitations = pgTable(
  'company_invitations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // Trimmed and lower-cased, as users.email.
    email: text('email').notNull(),
    role: text('role', { enum: COMPANY_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('company_invitations_company_idx').on(table.companyId, table.email)],
);

/** What the buyers see of a manager of the shop (their personal manager), edited in the back office. */
export const staffProfiles = pgTable('staff_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  // The address buyers write to; the sign-in address when null.
  contactEmail: text('contact_email'),
  phone: text('phone'),
  messengerUrl: text('messenger_url'),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // All tokens rotated from one login share a family; reuse of a spent one revokes the family.
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    familyExpiresAt: timestamp('family_expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('refresh_tokens_family_idx').on(table.familyId)],
);

/**
 * Sessions (refresh-token families) ended before their access tokens expire: by a logout, a
 * password change or reset, an account's deletion, or a stolen refresh token coming back. Every
 * access token names its session (claim `sid`) and is refused while the session is here; a row is
 * needed only as long as an access token issued before it can live (ACCESS_TOKEN_TTL_SECONDS), and
 * is purged after. No foreign key: a deleted account's sessions must stay revoked.
 */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    sessionId: uuid('session_id').primaryKey(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('revoked_sessions_revoked_at_idx').on(table.revokedAt)],
);

/**
 * A table of one-time links sent by e-mail to an account: the token is random and sent only in the
 * letter, so only its SHA-256 is kept; a link works once, until it expires, and the first one used
 * retires the account's others (repositories/one-time-tokens.ts).
 */
const oneTimeLinks = (name: string) =>
  pgTable(
    name,
    {
      id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      tokenHash: text('token_hash').notNull().unique(),
      createdAt: createdAt(),
      expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
      usedAt: timestamp('used_at', { withTimezone: true }),
    },
    (table) => [index(`${name}_user_idx`).on(table.userId)],
  );

/** Password-reset links, for an hour. */
export const passwordResetTokens = oneTimeLinks('password_reset_tokens');

/** Links of the e-mail confirmation letters, for 24 hours. */
export const emailConfirmationTokens = oneTimeLinks('email_confirmation_tokens');

/**
 * The attempts at sign-in, sign-up, a password check and a reset of the last throttling window,
 * which every server process counts alike (services/sign-in-throttle.ts); older rows are purged.
 * No key: rows are only counted, by client or by account, and deleted by age.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    // The client's address as the server sees it (TRUST_PROXY decides).
    client: text('client').notNull(),
    // The e-mail the attempt was at, trimmed and lower-cased, with or without an account; null for
    // the attempts counted per client only (sign-up, reset).
    account: text('account'),
    // True until the attempt proves the account's password: a wrong or unfinished one stays a failure.
    failed: boolean('failed').notNull().default(true),
    // The device cookie the attempt came with (its random id), when it was a valid one for the
    // account; null for every other attempt: those share one lockout per account.
    device: text('device'),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sign_in_attempts_client_idx').on(table.client, table.attemptedAt),
    index('sign_in_attempts_account_failures_idx')
      .on(table.account, table.attemptedAt)
      .where(sql`failed`),
    index('sign_in_attempts_age_idx').on(table.attemptedAt),
  ],
);

/**
 * The password-reset letters sent in the last day, one row each, which every server process
 * counts alike (repositories/reset-requests.ts); older rows are purged. Keyed by hashes of the
 * address and the client, so nothing is kept of an address without an account, nor of a deleted one
 * once its rows go. No key: rows are only counted by address (and client) and deleted by age.
 */
export const resetRequests = pgTable(
  'reset_requests',
  {
    // SHA-256 (base64url) of the e-mail as requested, trimmed and lower-cased, with or without an account.
    addressHash: text('address_hash').notNull(),
    // SHA-256 (base64url) of the requesting client as the throttling counts it (an address, an IPv6 /64).
    clientHash: text('client_hash').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('reset_requests_address_idx').on(table.addressHash, table.requestedAt),
    index('reset_requests_age_idx').on(table.requestedAt),
  ],
);

/**
 * The quick-order imports of the last window, one row each, which every server process counts
 * alike (repositories/quick-order-imports.ts); older rows are purged, and an account's go with it.
 */
export const quickOrderImports = pgTable(
  'quick_order_imports',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('quick_order_imports_user_idx').on(table.userId, table.importedAt),
    index('quick_order_imports_age_idx').on(table.importedAt),
  ],
);

export const categories = pgTable('categories', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  position: integer('position').notNull(),
  // The Ид of the 1С Группа it was made from (the exchange matches it by this, never by name).
  externalId: text('external_id').unique(),
});

/** A name as the category page sorts by it: case-insensitive, ё as е, under any database collation. */
export const productNameSortKey = (name: AnyPgColumn): SQL => sql`translate(lower(${name}), 'ё', 'е')`;

/**
 * An article as the search compares it, by src/shared/article-key.ts's articleKey: lower case,
 * Cyrillic look-alikes as Latin letters, letters and digits only («МО 1001» is mo1001).
 */
export const articleKeySql = (art: AnyPgColumn): SQL =>
  sql`regexp_replace(translate(lower(${art}), ${sql.raw(`'${LOOK_ALIKE_CYRILLIC}'`)}, ${sql.raw(`'${LOOK_ALIKE_LATIN}'`)}), '[^a-z0-9а-яё]', '', 'g')`;

/** An article's digits: a number typed alone is looked for here («1001» finds MO-1001). */
export const articleNumberSql = (art: AnyPgColumn): SQL => sql`regexp_replace(${art}, '[^0-9]', '', 'g')`;

/**
 * A word as a typo is compared: «ё» and «э» as «е», «о» as «а» (an unstressed «о» is heard and
 * written as «а»): «тэдди» is «тедди», «единарог» «единорог».
 */
export const typoKeySql = (word: SQL | AnyPgColumn): SQL => sql`translate(${word}, 'ёэо', 'ееа')`;

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    art: text('art').notNull().unique(),
    name: text('name').notNull(),
    description: text('description'),
    bigDescription: text('big_description'),
    image: text('image').notNull(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    // 'Popular' is units ordered (kept here by the order transaction), then the shop's curated rank.
    unitsOrdered: integer('units_ordered').notNull().default(0),
    curatedRank: integer('curated_rank').notNull(),
    // Set by a manager (the back office's «Популярный»): such products lead the popular list.
    popular: boolean('popular').notNull().default(false),
    // Set when a manager deletes the product: the storefront no longer shows it.
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
    // The lowest price among the product's variants (null: it has none), for the category page's
    // price sorts; kept by triggers on variants (migration 0009), so no write can forget it.
    minPrice: money('min_price'),
    // Sold in cartons: a line's count is a multiple of `multiple` and at least `min_quantity` (a
    // multiple itself), or the whole stock left (src/shared/pricing.ts).
    multiple: integer('multiple').notNull().default(1),
    minQuantity: integer('min_quantity').notNull().default(1),
    // 1С's Товар Ид: the exchange matches the product by it on every exchange, never by name.
    externalId: text('external_id').unique(),
    // What a marketplace card asks for (issue 41): set in the back office or the price list.
    brand: text('brand'),
    material: text('material'),
    filler: text('filler'),
    // «от 3 лет»: the youngest age the toy is for, in years (0: from birth).
    ageFrom: integer('age_from'),
    countryOfOrigin: text('country_of_origin'),
    // ТН ВЭД ЕАЭС, 10 digits (stuffed toys: 9503004100).
    tnved: text('tnved'),
    // The сертификат or декларация covering the product; one document covers a series of products.
    conformityDocumentId: integer('conformity_document_id').references((): AnyPgColumn => conformityDocuments.id, {
      onDelete: 'restrict',
    }),
    // The words of the name (weight A) and of the description (B), stemmed by the Russian snowball
    // stemmer, for the storefront's search; kept by PostgreSQL itself, so no write can forget it.
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`setweight(to_tsvector('russian', ${products.name}), 'A') || setweight(to_tsvector('russian', coalesce(${products.description}, '')), 'B')`,
      ),
    // The words of the name alone, stemmed as search_vector's weight A: search ranks name matches
    // before description-only ones. Stored, not computed per row as the search reads it: stemming a
    // name took 17 µs on the embedded database, a third of a search for a word in every name.
    nameVector: tsvector('name_vector')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('russian', ${products.name})`),
  },
  (table) => [
    index('products_search_idx').using('gin', table.searchVector).where(visible),
    // An article typed exactly or by its beginning, in any case: `lower(art) like 'mo-10%'`. Hidden
    // products too: a quick order names them by article to say they are off sale (without them
    // here, a 5 000-line import read every product and every variant, 1.4 s on the embedded database).
    index('products_art_lower_idx').using('btree', sql`lower(${table.art}) text_pattern_ops`),
    index('products_category_idx').on(table.categoryId, table.id).where(visible),
    // The search's article matches, folded (articleKeySql) and by number alone, exactly or by beginning.
    index('products_art_key_idx')
      .using('btree', sql`${articleKeySql(table.art)} text_pattern_ops`)
      .where(visible),
    index('products_art_number_idx')
      .using('btree', sql`${articleNumberSql(table.art)} text_pattern_ops`)
      .where(visible),
    // A category page in each order it offers (repositories/products.ts categoryOrder), read from
    // the index alone: sorting a whole category of 12 500 products took up to 110 ms.
    index('products_category_new_idx')
      .on(table.categoryId, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(visible),
    // The name itself last: a page's ids come from the index alone (the order reads the name, and
    // PostgreSQL gives an index-only scan only when every column read is in the index).
    index('products_category_name_idx')
      .on(table.categoryId, productNameSortKey(table.name), table.id, table.name)
      .where(visible),
    index('products_category_price_asc_idx')
      .on(table.categoryId, table.minPrice.asc().nullsLast(), table.id)
      .where(visible),
    index('products_category_price_desc_idx')
      .on(table.categoryId, table.minPrice.desc().nullsLast(), table.id)
      .where(visible),
    // The words of the name alone: search ranks name matches before description-only ones, and
    // takes its candidates of each kind by index (repositories/products.ts search).
    index('products_name_words_idx').using('gin', table.nameVector).where(visible),
    // Whether a picture is some product's cover: a marketplace photo's public link is rendered only
    // for one (repositories/marketplace-photos.ts), asked by anyone, so never by reading every product.
    index('products_image_idx').on(table.image),
    // NULLS FIRST, as the popular query's `units_ordered desc` sorts: Drizzle's `.desc()` alone
    // makes NULLS LAST, an order no query asks for, and the index went unused (every product read
    // and sorted, 35 ms at 20 000 products) although the column cannot be null.
    index('products_popular_idx')
      .on(table.popular.desc().nullsFirst(), table.unitsOrdered.desc().nullsFirst(), table.curatedRank, table.id)
      .where(visible),
    // The back office lists every product, hidden ones too, by category.
    index('products_all_category_idx').on(table.categoryId, table.id),
    index('products_conformity_document_idx').on(table.conformityDocumentId),
    check('products_age_from_range', sql`${table.ageFrom} between 0 and 18`),
    check('products_tnved_ten_digits', sql`${table.tnved} ~ '^[0-9]{10}$'`),
    check('products_units_ordered_non_negative', sql`${table.unitsOrdered} >= 0`),
    check('products_multiple_positive', sql`${table.multiple} >= 1`),
    check(
      'products_min_quantity_of_multiple',
      sql`${table.minQuantity} >= 1 and ${table.minQuantity} % ${table.multiple} = 0`,
    ),
  ],
);

/**
 * Every word of the visible products' names as written (lower-cased, not stemmed), with how many
 * names hold it, kept by triggers on products (migration 0020). A search with a typo finds here the
 * word it meant, among a few thousand words, rather than comparing the query with every name.
 */
export const nameVocabulary = pgTable(
  'name_vocabulary',
  {
    word: text('word').primaryKey(),
    products: integer('products').notNull(),
  },
  (table) => [index('name_vocabulary_typo_idx').using('gin', sql`${typoKeySql(table.word)} gin_trgm_ops`)],
);

export const variants = pgTable(
  'variants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    color: text('color').notNull(),
    size: integer('size').notNull(),
    price: money('price').notNull(),
    stock: integer('stock').notNull(),
    /**
     * Pieces of this variant held by the unpaid orders that unproven buyers placed (orders.unproven):
     * taken off `stock` and added here by the same update, given back by a cancel, released when the
     * order is paid. The pool UNPROVEN_STOCK_SHARE_PERCENT caps is checked against it while the row
     * is locked for the order, so two buyers at once cannot both pass a cap only one fits.
     */
    unprovenHeld: integer('unproven_held').notNull().default(0),
    /**
     * Its product's category, kept so by the database (triggers of migration 0018): every writer of
     * variants and of a product's category keeps it right without knowing. Not null in practice;
     * nullable here only so that writers need not name it.
     */
    categoryId: integer('category_id'),
    // 1С's Предложение Ид (`товар#характеристика`, or the product's Ид for a product of one variant).
    externalId: text('external_id').unique(),
    // Штрихкод as 1С sends it (an EAN-13, or an internal or carton code, flagged by
    // src/shared/barcode.ts where it is read), or an EAN-13 a manager typed (checked, unique).
    barcode: text('barcode'),
    // «Подлежит маркировке» (Честный знак): the codes themselves come through 1С and ЭДО.
    marked: boolean('marked').notNull().default(false),
    // The package's length, width and height in millimetres and its weight with it in grams.
    packageLengthMm: integer('package_length_mm'),
    packageWidthMm: integer('package_width_mm'),
    packageHeightMm: integer('package_height_mm'),
    weightG: integer('weight_g'),
  },
  (table) => [
    uniqueIndex('variants_product_color_size_idx').on(table.productId, table.color, table.size),
    index('variants_product_size_idx').on(table.productId, table.size, table.id),
    // A category's variants in product order, by colour and with sizes and prices: a category page
    // filtered by them merges these with the category's own index instead of looking into each
    // product in turn (33 ms at page 30). By colour alone, page 30 read the colour's variants of
    // every category (9 000 entries for 270 products).
    index('variants_category_color_product_idx').on(table.categoryId, table.color, table.productId),
    index('variants_category_product_idx').on(table.categoryId, table.productId, table.size, table.price),
    check('variants_stock_non_negative', sql`${table.stock} >= 0`),
    check('variants_unproven_held_non_negative', sql`${table.unprovenHeld} >= 0`),
    check('variants_price_non_negative', sql`${table.price} >= 0`),
    index('variants_barcode_idx').on(table.barcode),
    check(
      'variants_package_positive',
      sql`${table.packageLengthMm} > 0 and ${table.packageWidthMm} > 0 and ${table.packageHeightMm} > 0 and ${table.weightG} > 0`,
    ),
  ],
);

/**
 * A сертификат or декларация соответствия with its PDF: one document covers a series of products
 * (products.conformity_document_id), so it is kept once. Deleting one in use is refused.
 */
export const conformityDocuments = pgTable(
  'conformity_documents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: CONFORMITY_DOCUMENT_KINDS }).notNull(),
    // «ТР ТС 008/2011» for toys; pillows and plaids fall under others.
    regulation: text('regulation').notNull(),
    number: text('number').notNull().unique(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    // The PDF as uploaded (checked to be one), named for the kit by the document's number.
    pdf: bytea('pdf').notNull(),
    pdfBytes: integer('pdf_bytes').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('conformity_documents_kind', sql`${table.kind} in ('certificate', 'declaration')`),
    check('conformity_documents_valid_range', sql`${table.validTo} >= ${table.validFrom}`),
  ],
);

/**
 * A product's photos in order: `color` null is the product's own set, else the photos of its
 * variants of that colour (a marketplace card is one colour; the product's set is the fallback).
 * The first is the cover. `image` is a name GET /api/v1/image serves.
 */
export const productPhotos = pgTable(
  'product_photos',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    color: text('color'),
    position: integer('position').notNull(),
    image: text('image').notNull(),
  },
  (table) => [
    // The product's own set (null) is one set: coalesce, as a plain unique index lets nulls repeat.
    uniqueIndex('product_photos_order_idx').on(table.productId, sql`coalesce(${table.color}, '')`, table.position),
    // Whether a picture is some product's photo (as products_image_idx for covers).
    index('product_photos_image_idx').on(table.image),
    check('product_photos_position_positive', sql`${table.position} >= 1`),
  ],
);

/** A variant's price in a price type other than the default (whose price is variants.price). */
export const variantPrices = pgTable(
  'variant_prices',
  {
    priceTypeId: integer('price_type_id')
      .notNull()
      .references(() => priceTypes.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    price: money('price').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.variantId, table.priceTypeId] }),
    index('variant_prices_type_idx').on(table.priceTypeId, table.variantId),
    check('variant_prices_price_positive', sql`${table.price} > 0`),
  ],
);

/**
 * Price breaks within a price type: from `from_quantity` pieces, `price` a piece. A variant's own
 * count its line; a product's count all its variants in the cart together (for the variants that
 * have no tiers of their own in that type).
 */
export const priceTiers = pgTable(
  'price_tiers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    priceTypeId: integer('price_type_id')
      .notNull()
      .references(() => priceTypes.id, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => variants.id, { onDelete: 'cascade' }),
    fromQuantity: integer('from_quantity').notNull(),
    price: money('price').notNull(),
  },
  (table) => [
    uniqueIndex('price_tiers_product_idx').on(table.productId, table.priceTypeId, table.fromQuantity),
    uniqueIndex('price_tiers_variant_idx').on(table.variantId, table.priceTypeId, table.fromQuantity),
    check('price_tiers_one_owner', sql`(${table.productId} is null) <> (${table.variantId} is null)`),
    check('price_tiers_from_above_one', sql`${table.fromQuantity} >= 2`),
    check('price_tiers_price_positive', sql`${table.price} > 0`),
  ],
);

export const banners = pgTable('banners', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  image: text('image').notNull(),
  url: text('url'),
  position: integer('position').notNull(),
  // An inactive banner stays in the back office and is not shown on the home page.
  active: boolean('active').notNull().default(true),
});

export const cartItems = pgTable(
  'cart_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
    // The price the buyer saw when adding: the cart shows the old and the new one when they differ.
    priceWhenAdded: money('price_when_added').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('cart_items_user_variant_idx').on(table.userId, table.variantId),
    check('cart_items_count_range', sql`${table.count} between 1 and 10000`),
  ],
);

/**
 * A per-account count of the cart's changes, bumped by the database itself (statement triggers on
 * cart_items, migration `cart_revisions`) at every write of the cart, whoever writes it, so every
 * process agrees. The cart's answer carries it as `version`, and an order made from the server cart
 * sends it back: a cart changed meanwhile refuses the order (409) instead of placing another one.
 * No row: revision 0.
 */
export const cartRevisions = pgTable('cart_revisions', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  revision: integer('revision').notNull(),
});

export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // Who placed it. Null once that account is deleted: the order stays for accounting, anonymised.
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    // Whose it is: every employee of the company sees it. Null once the company is dissolved.
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    // The legal entity it was made out to (its details are copied into company_*, as printed).
    legalEntityId: uuid('legal_entity_id').references(() => legalEntities.id, { onDelete: 'set null' }),
    // The placing employee's name (or e-mail) as it was: the order keeps it after they leave.
    placedByName: text('placed_by_name'),
    status: text('status').notNull(),
    address: text('address').notNull(),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    companyName: text('company_name'),
    companyInn: text('company_inn'),
    companyKpp: text('company_kpp'),
    totalPrice: numeric('total_price', { precision: 14, scale: 2 }).notNull(),
    // The buyer's Idempotency-Key and a digest of the request it came with: a retried POST finds
    // its order instead of placing a second one.
    idempotencyKey: text('idempotency_key'),
    requestDigest: text('request_digest'),
    // Placed by a buyer not yet proven while unpaid: its lines count in variants.unproven_held and
    // it keeps its goods RESERVATION_HOURS_UNPROVEN. Cleared when it is paid; it keeps the terms it
    // was placed under if its buyer becomes proven otherwise (docs/decisions.md).
    unproven: boolean('unproven').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // The 1С exchange (type=sale): the order is sent while exchange_confirmed_at is null or older than
    // exchange_changed_at. The shop's own changes move exchange_changed_at; changes read from 1С's
    // file do not (1С knows them). `success` sets exchange_confirmed_at to the exchange_changed_at it
    // sent, so a change made between the query and the success is sent again.
    exchangeChangedAt: timestamp('exchange_changed_at', { withTimezone: true }).notNull().defaultNow(),
    exchangeConfirmedAt: timestamp('exchange_confirmed_at', { withTimezone: true }),
    // The order as 1С last described it (its lines and sum, when they differ from what was placed:
    // shipped 18 of 24): shown beside the buyer's lines, which never change.
    oneCDocument: jsonb('one_c_document').$type<OneCOrderDocument>(),
  },
  (table) => [
    index('orders_user_idx').on(table.userId, table.id.desc()),
    index('orders_company_idx').on(table.companyId, table.id.desc()),
    // The managers' queue: newest first, alone or within one status, read a page at a time.
    index('orders_created_idx').on(table.createdAt, table.id),
    index('orders_status_created_idx').on(table.status, table.createdAt, table.id),
    uniqueIndex('orders_user_idempotency_key_idx').on(table.userId, table.idempotencyKey),
    // A company's unpaid orders, counted against BuyerLimits.maxUnpaidOrders at every order placed,
    // however many paid and delivered ones it has. The statuses are UNPAID_STATUSES.
    index('orders_company_unpaid_idx')
      .on(table.companyId)
      .where(sql`${table.status} in ('Создан', 'Ожидает оплаты')`),
    // What the next type=sale query sends.
    index('orders_exchange_pending_idx')
      .on(table.exchangeChangedAt, table.id)
      .where(sql`${table.exchangeConfirmedAt} is null or ${table.exchangeConfirmedAt} < ${table.exchangeChangedAt}`),
  ],
);

/** Lines keep the name, variant, price and quantity as they were when the order was placed. */
export const orderLines = pgTable(
  'order_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id),
    productName: text('product_name').notNull(),
    color: text('color').notNull(),
    size: integer('size').notNull(),
    // The piece's price applied (the tier's, when one was reached).
    price: money('price').notNull(),
    quantity: integer('quantity').notNull(),
    // As applied when placed, never recomputed (null on lines placed before price types): the
    // one-piece price of the type, the type's name and id, and the tier reached («от N шт.»).
    listPrice: money('list_price'),
    priceTypeId: integer('price_type_id').references(() => priceTypes.id, { onDelete: 'set null' }),
    priceTypeName: text('price_type_name'),
    tierFrom: integer('tier_from'),
  },
  (table) => [
    index('order_lines_order_idx').on(table.orderId),
    check('order_lines_quantity_positive', sql`${table.quantity} > 0`),
  ],
);

/** The company's delivery addresses, shared by its employees. */
export const addresses = pgTable(
  'addresses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // Who added it; null once that account is deleted.
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    country: text('country').notNull(),
    city: text('city').notNull(),
    street: text('street').notNull(),
    homeNumber: text('home_number').notNull(),
    apartmentNumber: text('apartment_number'),
    createdAt: createdAt(),
  },
  (table) => [index('addresses_company_idx').on(table.companyId, table.id)],
);

/**
 * The employee's own contact details, kept for the next checkout: one row per buyer. The company
 * details they held before companies are the companies' legal entities now (migration 0030).
 */
export const requisites = pgTable('requisites', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contactName: text('contact_name'),
  contactPhone: text('contact_phone'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every status change of an order, written in the transaction that makes it. */
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    // Null when the change came from the command line, which acts for no account.
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    // The manager's words on the change (a waybill, why it was cancelled): the buyer reads them in
    // the order's history and in the status letter.
    comment: text('comment'),
    // Why the server itself made the change (an unpaid order's reservation lapsed), in words for
    // the buyer: shown on the buyer's order page and in the back office.
    reason: text('reason'),
    // How «Отправлен» went: the carrier (src/shared/carriers.ts) and its tracking number, shown to
    // the buyer with a link to the carrier's page. Null for every other change.
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
  },
  (table) => [index('order_status_history_order_idx').on(table.orderId, table.id)],
);

/**
 * The shop's own details printed on every invoice (GET/PUT /api/v1/admin/settings/requisites):
 * one row, absent until a manager fills them in.
 */
export const supplierRequisites = pgTable(
  'supplier_requisites',
  {
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull(),
    inn: text('inn').notNull(),
    kpp: text('kpp'),
    ogrn: text('ogrn').notNull(),
    address: text('address').notNull(),
    bankName: text('bank_name').notNull(),
    bik: text('bik').notNull(),
    account: text('account').notNull(),
    corrAccount: text('corr_account').notNull(),
    // Percent; null: the supplier does not charge VAT («Без НДС»).
    vatRate: integer('vat_rate'),
    paymentDays: integer('payment_days').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('supplier_requisites_single_row', sql`${table.id} = 1`)],
);

/**
 * The last invoice number given in each year. Taking a number updates this row inside the
 * transaction that writes the invoice, so concurrent issuers queue on its lock and a rolled-back
 * invoice gives its number back: the numbers of a year have no gaps and no duplicates.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/** At most one invoice per order; what it printed is kept, so a later settings change leaves it as issued. */
export const invoices = pgTable(
  'invoices',
  {
    orderId: integer('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    number: integer('number').notNull(),
    // The calendar day in Moscow printed as «от D месяца YYYY г.».
    issuedOn: date('issued_on', { mode: 'string' }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    // The supplier's requisites as they were when the invoice was issued (SupplierRequisites).
    supplier: jsonb('supplier').notNull(),
    // The PDF as first rendered (an invoice never changes once issued): later downloads are a read,
    // not another 100–250 ms of drawing on the event loop.
    pdf: bytea('pdf'),
  },
  (table) => [uniqueIndex('invoices_year_number_idx').on(table.year, table.number)],
);

/** Pictures uploaded in the back office, re-encoded: every server process serves them from here. */
export const images = pgTable('images', {
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * The high-quality copy of an uploaded picture (JPEG, up to MASTER_MAX_SIDE a side, no metadata),
 * from which the marketplace kit's photos are made: never the uploaded bytes, never the display copy.
 */
export const imageMasters = pgTable('image_masters', {
  name: text('name')
    .primaryKey()
    .references(() => images.name, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
});

/**
 * The marketplace photo (a 3:4 JPEG, marketplace/kit-photo.ts) of an uploaded product picture,
 * rendered from its master once — by the first kit or public link that asks — and served from here
 * ever after by every process, under an address cached for good: the first stored is kept, never
 * replaced. Goes with its picture, so it never outlives what GET /api/v1/image/{name} shows.
 */
export const marketplacePhotos = pgTable('marketplace_photos', {
  name: text('name')
    .primaryKey()
    .references(() => images.name, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});

/**
 * A price list's dry run, kept so its changes can be read page by page or as a file and «Применить»
 * applies exactly what was checked (repositories/price-list.ts), in whichever server process the
 * manager's next request lands. One per manager (a new check replaces the last), gone after
 * `expiresAt` or once applied; its rows go with it.
 */
export const priceListPreviews = pgTable(
  'price_list_previews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created: integer('created').notNull(),
    updated: integer('updated').notNull(),
    unchanged: integer('unchanged').notNull(),
    newProducts: integer('new_products').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('price_list_previews_user_idx').on(table.userId),
    index('price_list_previews_expiry_idx').on(table.expiresAt),
  ],
);

/**
 * The other price types' prices (kopecks), the packaging and the card's fields (the columns the file
 * has; absent from previews kept before them) of a previewed row.
 */
interface PreviewRowWholesale {
  typePrices: { code: string; priceKopecks: number | null }[];
  oldTypePrices: (number | null)[];
  packaging: Packaging | null;
  oldPackaging: Packaging | null;
  productCard?: Partial<ProductCardFields>;
  variantCard?: Partial<VariantCardFields>;
  oldProductCard?: Partial<ProductCardFields> | null;
  oldVariantCard?: Partial<VariantCardFields> | null;
}

/**
 * Every row of a previewed file, as it was read and what the shop had for it at the check: the old
 * values are null for a new variant. Unchanged rows are kept too: «Применить» checks them as well.
 */
export const priceListPreviewRows = pgTable(
  'price_list_preview_rows',
  {
    previewId: uuid('preview_id')
      .notNull()
      .references(() => priceListPreviews.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    kind: text('kind', { enum: ['created', 'updated', 'unchanged'] }).notNull(),
    newProduct: boolean('new_product').notNull(),
    art: text('art').notNull(),
    name: text('name').notNull(),
    category: text('category').notNull(),
    color: text('color').notNull(),
    size: integer('size').notNull(),
    price: money('price').notNull(),
    stock: integer('stock').notNull(),
    oldName: text('old_name'),
    oldCategory: text('old_category'),
    oldPrice: money('old_price'),
    oldStock: integer('old_stock'),
    // What the row gives beyond the columns above, as the import plans it (domain/price-list-rows.ts
    // PreviewedRow): the prices of the other price types the file has a column for, in kopecks by
    // code (null: none), the shop's beside them, and the product's packaging. The default is what a
    // file from before price types gives.
    wholesale: jsonb('wholesale')
      .$type<PreviewRowWholesale>()
      .notNull()
      .default({ typePrices: [], oldTypePrices: [], packaging: null, oldPackaging: null }),
  },
  (table) => [primaryKey({ columns: [table.previewId, table.row] })],
);

/** Who changed what in the back office, with the entity before and after (GET /api/v1/admin/audit). */
export const auditLog = pgTable('audit_log', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
  // A verb on an entity: 'product.create', 'variant.update', 'invoice.issue', 'catalogue.import'…
  action: text('action').notNull(),
  entity: text('entity').notNull(),
  entityId: text('entity_id'),
  before: jsonb('before'),
  after: jsonb('after'),
});

/**
 * Messages waiting to be sent, one row per recipient, written in the transaction of the event that
 * causes them (an order, a status change, an invoice, a reset request), so none is lost or made for
 * an event that rolled back. A sender claims a row by moving next_attempt_at forward (its lease), so
 * another process skips it and a process killed mid-send leaves it to be sent again once the lease
 * ends, under the same Message-ID.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // The Message-ID's unique part, fixed here: a message sent again is recognisably the same one.
    messageId: uuid('message_id').notNull().defaultRandom().unique(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    // The issued invoice whose PDF goes with the message, read (or drawn once and kept) at send time.
    invoiceOrderId: integer('invoice_order_id').references(() => invoices.orderId, { onDelete: 'cascade' }),
    // The order whose lines go with the message as an XLSX (services/order-sheet), written at send
    // time from the order: its lines never change, and the row stays small.
    sheetOrderId: integer('sheet_order_id').references(() => orders.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    index('mail_outbox_due_idx')
      .on(table.nextAttemptAt, table.id)
      .where(sql`sent_at is null and failed_at is null`),
  ],
);

/**
 * A session of 1С at /1c_exchange: made by `checkauth` (HTTP Basic), named by the cookie it returns
 * (only its SHA-256 kept), read by whichever server process the next call reaches.
 */
export const exchangeSessions = pgTable(
  'exchange_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cookieHash: text('cookie_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientIp: text('client_ip').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    // The exchange `init` began in this session (its files and progress); null before `init`.
    runId: uuid('run_id').references((): AnyPgColumn => exchangeRuns.id, { onDelete: 'set null' }),
  },
  (table) => [index('exchange_sessions_last_seen_idx').on(table.lastSeenAt)],
);

/**
 * One exchange with 1С, from `init` to `success` or `failure`: its files (in the exchange folder
 * EXCHANGE_DIR/<id>/, kept EXCHANGE_FILES_KEEP_DAYS for support), what it did, and for the catalogue
 * its progress file by file (exchange_files). The back office's «Обмен с 1С» lists these.
 */
export const exchangeRuns = pgTable(
  'exchange_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['catalog', 'sale'] }).notNull(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    // receiving: files arriving; importing; done; failed (failure says why).
    status: text('status', { enum: ['receiving', 'importing', 'done', 'failed'] })
      .notNull()
      .default('receiving'),
    failure: text('failure'),
    stats: jsonb('stats').$type<ExchangeRunStats>().notNull().default({}),
    // type=sale: the orders the query sent, with the exchange_changed_at each was sent at; `success`
    // confirms exactly these. Null until a query.
    sentOrders: jsonb('sent_orders').$type<{ id: number; changedAt: string }[]>(),
    // The files were deleted (kept EXCHANGE_FILES_KEEP_DAYS).
    filesRemovedAt: timestamp('files_removed_at', { withTimezone: true }),
  },
  (table) => [index('exchange_runs_started_idx').on(table.startedAt.desc(), table.id)],
);

/**
 * A file of an exchange: received (chunks appended to EXCHANGE_DIR/<run>/<name>), then imported in
 * steps. `stage` and `position` let the next `import` call, in any process, go on where the last
 * one stopped; `heartbeat_at` tells a step still running from one whose process died.
 */
export const exchangeFiles = pgTable(
  'exchange_files',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => exchangeRuns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    bytes: numeric('bytes', { precision: 16, scale: 0, mode: 'number' }).notNull().default(0),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    // received → staging (read into the exchange_staged_* tables) → staged → applied; failed.
    stage: text('stage', { enum: ['received', 'staging', 'staged', 'applying', 'applied', 'failed'] })
      .notNull()
      .default('received'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    failure: text('failure'),
  },
  (table) => [primaryKey({ columns: [table.runId, table.name] })],
);

/** The Группы of an import.xml being imported, read in full before anything is applied. */
export const exchangeStagedGroups = pgTable(
  'exchange_staged_groups',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => exchangeRuns.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    parentId: text('parent_id'),
    path: text('path').array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.externalId] })],
);

/** The Товары of an import.xml being imported (commerceml/records.ts ProductRecord, as read). */
export const exchangeStagedProducts = pgTable(
  'exchange_staged_products',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => exchangeRuns.id, { onDelete: 'cascade' }),
    file: text('file').notNull(),
    externalId: text('external_id').notNull(),
    record: jsonb('record').notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.externalId] })],
);

/** The Предложения of an offers, prices or rests file being imported (commerceml/records.ts OfferRecord). */
export const exchangeStagedOffers = pgTable(
  'exchange_staged_offers',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => exchangeRuns.id, { onDelete: 'cascade' }),
    file: text('file').notNull(),
    externalId: text('external_id').notNull(),
    record: jsonb('record').notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.file, table.externalId] })],
);

/**
 * 1С's price types (ТипыЦен), as the exchanges have named them, and the shop's type each fills. A
 * 1С type named like a shop type fills it until a manager says otherwise (mapped_by_manager); an
 * unmapped one («Закупочная») is ignored. The exchange never creates a shop type.
 */
export const exchangePriceTypes = pgTable('exchange_price_types', {
  externalId: text('external_id').primaryKey(),
  name: text('name').notNull(),
  priceTypeId: integer('price_type_id').references(() => priceTypes.id, { onDelete: 'set null' }),
  mappedByManager: boolean('mapped_by_manager').notNull().default(false),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/** 1С's warehouses (Склады): the stock is the sum over those `used` (all of them until a manager chooses). */
export const exchangeWarehouses = pgTable('exchange_warehouses', {
  externalId: text('external_id').primaryKey(),
  name: text('name').notNull(),
  used: boolean('used').notNull().default(true),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A company's secret address of its product feed (GET /api/v1/feed/<token>.yml): only the token's
 * SHA-256 is kept, the token shown once to the owner who made it. One a company: a new one replaces
 * the old, which stops at once.
 */
export const companyFeeds = pgTable('company_feeds', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
});

/**
 * The YML feed files built under FEED_DIR, one per kind (`key`: the visitors' view or a price type),
 * so that every process serves the newest (services/feeds.ts). A process builds one while it holds
 * its lease, renewed as it goes; one that died leaves it to another once the lease lapses.
 */
export const feedFiles = pgTable('feed_files', {
  key: text('key').primaryKey(),
  // The file's name in FEED_DIR; null until the first build ends.
  file: text('file'),
  // When the build that wrote `file` began reading the catalogue: a change after it is not in it.
  builtAt: timestamp('built_at', { withTimezone: true }),
  // The last catalogue change heard of: after built_at, the file is out of date.
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  // The absolute addresses' origin (PUBLIC_URL, or the first asking request's without it).
  origin: text('origin').notNull(),
  // Until when a build holds the feed (lease_id set), or, after a failed one, until when no build
  // may start (lease_id null): the backoff grows with `failures`, the failed builds in a row.
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  // The holder's random id: renewing, finishing or failing a build checks it is still the holder.
  leaseId: text('lease_id'),
  failures: integer('failures').notNull().default(0),
});
