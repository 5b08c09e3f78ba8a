/**
 * The second security review's smaller holes (items 7 to 12): each found hole is tried
 * here against the running app, the way a buyer, a manager or an operator would meet it.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { minify, type Options as MinifyOptions } from 'html-minifier-terser';
import { simpleParser } from 'mailparser';
import type {
  AdminBanner,
  AdminCategory,
  AdminProduct,
  AdminProductList,
  CartImportResult,
  Product,
} from '../../../src/shared/api';
import { DELETED_PERSONAL_DATA } from '../../../src/shared/account';
import { NEW_PRODUCT_IMAGE } from '../../../src/server/services/catalogue-images';
import { checkMetricsHostResolves, loadConfig } from '../../../src/server/config';
import configPlugin from '../../../src/server/plugins/config';
import metricsPlugin from '../../../src/server/plugins/metrics';
import { shellDescription, withHead } from '../../../src/server/services/page-head';
import { latestAudit, openBackOffice } from '../helpers/back-office';
import { placeOrderOf } from '../helpers/order-workflow';
import {
  STARTUP_TIMEOUT,
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  signUp,
  type Shopper,
  type TestApp,
} from '../helpers/test-app';
import { users } from '../../../src/server/db/schema';

let shop: TestApp;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });

describe('item 9: a change naming no field the route knows', () => {
  it('is refused with 422 and a Russian detail on products, variants, categories and banners', async () => {
    const [product] = json<AdminProductList>(await admin('GET', '/products?limit=1')).items as [AdminProduct];
    const [category] = json<AdminCategory[]>(await admin('GET', '/categories')) as [AdminCategory];
    const [banner] = json<AdminBanner[]>(await admin('GET', '/banners')) as [AdminBanner];
    for (const url of [
      `/products/${product.id}`,
      `/variants/${product.variants[0]!.id}`,
      `/categories/${category.id}`,
      `/banners/${banner.id}`,
    ]) {
      const response = await admin('PATCH', url, { colour: 'red', unknown: 1 });
      expect([url, response.statusCode]).toEqual([url, 422]);
      expect(response.json()).toEqual({
        detail: 'Некорректные данные: не передано ни одного известного поля для изменения',
      });
    }
    // A known field next to unknown ones is still a change.
    const renamed = await admin('PATCH', `/categories/${category.id}`, { name: category.name, colour: 'red' });
    expect(renamed.statusCode).toBe(200);
  });
});

describe('item 11: a product created without a picture', () => {
  it('gets the placeholder the price list gives a new product', async () => {
    const [category] = json<AdminCategory[]>(await admin('GET', '/categories')) as [AdminCategory];
    const response = await admin('POST', '/products', {
      art: 'REVIEW-2-NO-PHOTO',
      name: 'Зайка без фото',
      description: 'Мягкий',
      category: category.name,
      variants: [{ color: 'Белый', size: 25, price: 350, stock: 4 }],
    });
    expect(response.statusCode).toBe(201);
    expect(json<AdminProduct>(response).image).toBe(NEW_PRODUCT_IMAGE);
    const picture = await shop.app.inject({ method: 'GET', url: `/api/v1/image/${NEW_PRODUCT_IMAGE}` });
    expect(picture.statusCode).toBe(200);
  });
});

describe('item 10: the token of an account an operator deleted by SQL', () => {
  it('is refused with 401 on every route that needs a signed-in buyer, at once', async () => {
    const gone = await signUp(shop.app);
    const [product] = await allProducts(shop.app);
    const variant = product!.variants.find((candidate) => candidate.stock > 0)!;
    const line = { product_id: product!.id, variant_id: variant.id, count: 1 };
    const ownCart = await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${gone.id}`, headers: gone.headers });
    expect(ownCart.statusCode).toBe(200);

    // Another connection, as an operator's psql would be: this process learns of it only by the database.
    await shop.app.database.db.delete(users).where(eq(users.id, gone.id));

    const requests = [
      { method: 'GET', url: `/api/v1/cart/${gone.id}` },
      { method: 'POST', url: '/api/v1/cart/add', payload: { user_id: gone.id, ...line } },
      { method: 'POST', url: '/api/v1/cart/bulk', payload: { user_id: gone.id, items: [line] } },
      {
        method: 'POST',
        url: '/api/v1/order/',
        payload: { user_id: gone.id, address: 'Москва, ул. Ленина, 1', items: [{ ...line, quantity: 1 }] },
      },
      { method: 'GET', url: `/api/v1/order/${gone.id}` },
      { method: 'GET', url: `/api/v1/address/${gone.id}` },
      { method: 'GET', url: `/api/v1/requisites/${gone.id}` },
      { method: 'GET', url: '/api/v1/auth/user' },
      { method: 'GET', url: '/api/v1/auth/user/export' },
    ] as const;
    const answers = [];
    for (const request of requests) {
      const response = await shop.app.inject({ ...request, headers: gone.headers });
      answers.push([request.method, request.url, response.statusCode, response.json<{ detail?: string }>().detail]);
    }
    expect(answers).toEqual(
      requests.map((request) => [request.method, request.url, 401, expect.stringMatching(/[а-яё]/i)]),
    );
  });
});

describe('item 7: a product taken off sale, to buyers', () => {
  it('is an unknown article in the quick order and an unknown variant when added, named nowhere', async () => {
    const prying = await signUp(shop.app);
    const [product] = (await allProducts(shop.app)).slice(-1) as [Product];
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    expect((await admin('DELETE', `/products/${product.id}`)).statusCode).toBe(200);

    const checked = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/import',
      query: { dry_run: 'true' },
      headers: { ...prying.headers, 'content-type': 'text/plain' },
      payload: `${product.art} ${variant.color} ${variant.size} 1`,
    });
    expect(checked.statusCode).toBe(200);
    expect(json<CartImportResult>(checked).lines).toEqual([
      {
        line: 1,
        art: product.art,
        color: variant.color,
        size: variant.size,
        count: 1,
        product_id: null,
        variant_id: null,
        name: null,
        price: null,
        stock: null,
        unproven_held: null,
        multiple: null,
        min_quantity: null,
        error: `Артикул ${product.art} не найден`,
      },
    ]);

    const line = { product_id: product.id, variant_id: variant.id, count: 1 };
    const added = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: prying.headers,
      payload: { user_id: prying.id, ...line },
    });
    const bulk = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/bulk',
      headers: prying.headers,
      payload: { user_id: prying.id, items: [line] },
    });
    const unknownVariant = `не удалось найти вариант с id=${variant.id} для продукта ${product.id}`;
    expect([added.statusCode, added.json()]).toEqual([422, { detail: `Н${unknownVariant.slice(1)}` }]);
    expect([bulk.statusCode, bulk.json()]).toEqual([422, { detail: `Строка 1: ${unknownVariant}` }]);
    for (const answer of [checked, added, bulk]) expect(answer.body).not.toContain(product.name);
  });

  it("is said to be off sale to an order only from the buyer's own cart; named by ids alone it is unknown", async () => {
    const [owner, prying] = await quickShoppers(shop.app, 2);
    const [product] = (await allProducts(shop.app)).slice(-2) as [Product];
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    const line = { product_id: product.id, variant_id: variant.id, count: 1 };
    const addedBefore = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: owner!.headers,
      payload: { user_id: owner!.id, ...line },
    });
    expect(addedBefore.statusCode).toBe(201);
    expect((await admin('DELETE', `/products/${product.id}`)).statusCode).toBe(200);

    const order = (who: Shopper) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: who.headers,
        payload: {
          user_id: who.id,
          address: 'г. Тверь, ул. Советская, д. 3',
          items: [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
        },
      });
    const fromCart = await order(owner!);
    expect(fromCart.statusCode).toBe(409);
    expect(fromCart.json()).toEqual({ detail: expect.stringContaining('снят с продажи') });
    const byIds = await order(prying!);
    expect(byIds.statusCode).toBe(422);
    expect(byIds.json()).toEqual({ detail: `Не удалось найти вариант с id=${variant.id} для продукта ${product.id}` });
    for (const answer of [fromCart, byIds]) expect(answer.body).not.toContain(product.name);
  });
});

describe('item 12: the smaller notes', () => {
  const BOSS = 'boss@myagkiy-opt.example';
  let mailRoot: string;
  let mailDir: string;
  let mailShop: TestApp;

  beforeAll(async () => {
    mailRoot = await mkdtemp(path.join(tmpdir(), 'review-2-mail-'));
    // Not there yet: the shop makes it, as it makes data/mail on a first start.
    mailDir = path.join(mailRoot, 'letters');
    mailShop = await createTestApp({ mail: { dir: mailDir, managerEmails: [BOSS], pollMs: 100 } });
  }, STARTUP_TIMEOUT);
  afterAll(async () => {
    await mailShop?.close();
    await rm(mailRoot, { recursive: true, force: true });
  });

  /** The letter written to `to` whose subject has `subject`, parsed, with its file. */
  async function letterTo(to: string, subject: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const files = await readdir(mailDir).catch(() => [] as string[]);
      for (const name of files) {
        const file = path.join(mailDir, name);
        const parsed = await simpleParser(await readFile(file));
        const recipients = [parsed.to ?? []].flat().map((address) => address.text);
        if (recipients.includes(to) && parsed.subject?.includes(subject)) return { file, parsed };
      }
      if (Date.now() > deadline) throw new Error(`no «${subject}» to ${to} in ${files.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function orderWith(fields: object) {
    const [orderer] = (await quickShoppers(mailShop.app, 1)) as [Shopper];
    const [product] = (await allProducts(mailShop.app)).filter((candidate) => candidate.variants.some((v) => v.stock));
    return (await placeOrderOf(mailShop.app, orderer, product!, { quantity: 1, stock: 10, fields })).order;
  }

  it("a buyer's one-line fields lose CR/LF before the managers' letter", async () => {
    const forged = 'Статус: Оплачен';
    const order = await orderWith({
      contact_name: `Иван\r\n${forged}`,
      contact_phone: `+7 900 000-00-00\n${forged}`,
      company_name: `ООО «Ромашка»\r${forged}`,
      address: `г. Тверь, ул. Советская, д. 3\u2028${forged}`,
    });
    const { parsed } = await letterTo(BOSS, `Новый заказ № ${order.id}`);
    const lines = (parsed.text ?? '').split(/\r\n|\r|\n|\u2028/);
    expect(lines).toContain(`Контактное лицо: Иван ${forged}`);
    expect(lines).toContain(`Адрес доставки: г. Тверь, ул. Советская, д. 3 ${forged}`);
    expect(lines.filter((line) => line.startsWith(forged))).toEqual([]);
  });

  it('the .eml files, and the directory the shop makes for them, are for its own account only', async () => {
    const order = await orderWith({});
    const { file } = await letterTo(BOSS, `Новый заказ № ${order.id}`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(mailDir)).mode & 0o777).toBe(0o700);
  });

  it('in production the server refuses to start without PUBLIC_URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required in production/);
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://myagkiy-opt.example' });
    expect(config.publicUrl).toBe('https://myagkiy-opt.example');
    expect(loadConfig({}).publicUrl).toBeNull();
  });

  it('a role changed as `npm run users` changes it is in the audit log', async () => {
    const [promoted] = (await quickShoppers(shop.app, 1)) as [Shopper];
    await shop.app.repositories.users.setRole(promoted.email, 'manager');
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      by: null,
      action: 'user.role',
      entity: 'user',
      entity_id: String(promoted.id),
      before: { email: promoted.email, role: 'buyer' },
      after: { email: promoted.email, role: 'manager' },
    });
  });

  it('a deleted account’s address does not stay in the journal’s entries of its role changes', async () => {
    const [promoted] = (await quickShoppers(shop.app, 1)) as [Shopper];
    await shop.app.repositories.users.setRole(promoted.email, 'manager');
    await shop.app.repositories.users.setRole(promoted.email, 'buyer');
    await shop.app.repositories.users.deleteAccount(promoted.id, new Date(), { dissolveCompany: true });
    const entries = (await latestAudit(shop.app, manager, 50)).filter(
      (entry) => entry.entity_id === String(promoted.id),
    );
    expect(entries.map(({ before, after }) => ({ before, after }))).toEqual([
      {
        before: { email: DELETED_PERSONAL_DATA, role: 'manager' },
        after: { email: DELETED_PERSONAL_DATA, role: 'buyer' },
      },
      {
        before: { email: DELETED_PERSONAL_DATA, role: 'buyer' },
        after: { email: DELETED_PERSONAL_DATA, role: 'manager' },
      },
    ]);
    expect(JSON.stringify(await latestAudit(shop.app, manager, 100))).not.toContain(promoted.email);
  });

  // What html-webpack-plugin passes to html-minifier-terser for a production build (its defaults,
  // node_modules/html-webpack-plugin/index.js), and the same with the attributes' quotes dropped.
  const BUILD: MinifyOptions = {
    collapseWhitespace: true,
    keepClosingSlash: true,
    removeComments: true,
    removeRedundantAttributes: true,
    removeScriptTypeAttributes: true,
    removeStyleLinkTypeAttributes: true,
    useShortDoctype: true,
  };
  it.each([
    ['as the production build writes it', BUILD],
    ['with the quotes of attributes dropped (name=description)', { ...BUILD, removeAttributeQuotes: true }],
  ])("a product page's description replaces the shell's, %s", async (_form, options) => {
    const source = await readFile(path.join(__dirname, '../../../public/index.html'), 'utf8');
    const built = await minify(source, options);
    const own = shellDescription(source);
    expect(own).toMatch(/^Мягкий Опт — /);
    expect(shellDescription(built)).toBe(own);
    const page = withHead(built, { title: 'Мишка', description: 'Мишка бурый. Артикул MO-1001.' }, '');
    const descriptions = page.match(/<meta[^>]*description[^>]*>/g);
    expect(descriptions).toEqual(['<meta name="description" content="Мишка бурый. Артикул MO-1001.">']);
  });
});

describe('item 8: METRICS_HOST, a listener without a token', () => {
  it.each(['134744072', '0x8.8.8.8', '0x08080808', '8.526344', '::ffff:808:808'])(
    'refuses %s, a spelling of the public 8.8.8.8, when the configuration is read',
    (host) => {
      expect(() => loadConfig({ METRICS_PORT: '9100', METRICS_HOST: host })).toThrow(
        `METRICS_HOST ${host} is a public address`,
      );
    },
  );

  it('resolves a host name at start: a public result or none refuses the start', async () => {
    // The system's resolver reads a number as an address, as the listener would.
    await expect(checkMetricsHostResolves('134744072')).rejects.toThrow(
      'METRICS_HOST 134744072 resolves to the public address 8.8.8.8',
    );
    await expect(checkMetricsHostResolves('metrics.invalid')).rejects.toThrow(
      /METRICS_HOST metrics\.invalid does not resolve/,
    );
    await expect(checkMetricsHostResolves('localhost')).resolves.toBeUndefined();

    // The shop's start: the metrics plugin checks before its listener opens.
    const starting = Fastify();
    await starting.register(configPlugin, {
      config: { ...loadConfig({}), metrics: { port: 0, host: 'metrics.invalid', token: null } },
    });
    await starting.register(metricsPlugin);
    await expect(starting.ready()).rejects.toThrow(/METRICS_HOST metrics\.invalid does not resolve/);
    await starting.close();
  });
});
