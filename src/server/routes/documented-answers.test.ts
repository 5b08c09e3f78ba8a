/**
 * The served OpenAPI document against what the server answers: the statuses every route can answer
 * whatever its handler does, the parameters a client may leave out, the picture route's files, and
 * the 405 a known path answers to a method it does not take.
 */
import type { Product } from '../../shared/api';
import {
  allProducts,
  createTestApp,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../test/server/helpers/test-app';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: { default?: unknown } }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }>;
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

let shop: TestApp;
let buyer: Shopper;
let product: Product;
let operations: { method: string; path: string; operation: Operation }[];

beforeAll(async () => {
  shop = await createTestApp();
  [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  [product] = (await allProducts(shop.app)) as [Product];
  const document = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method, path, operation })),
  );
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** The statuses the operation `method path` documents. */
function documented(method: string, path: string): string[] {
  const found = operations.find((candidate) => candidate.method === method && candidate.path === path);
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return Object.keys(found.operation.responses);
}

describe('the whole OpenAPI document', () => {
  it('lists on every operation the error statuses the server answers on any route of its kind', () => {
    const missing: string[] = [];
    for (const { method, path, operation } of operations) {
      const central = [
        // A body that is not JSON, too large, or of a type no parser reads.
        ...(BODY_METHODS.has(method) ? ['400', '413', '415'] : []),
        // Input its schema refuses.
        ...(operation.parameters?.length || operation.requestBody ? ['422'] : []),
        // A path parameter that does not decode or is too long.
        ...(path.includes('{') ? ['400', '414'] : []),
        // The database unreachable.
        ...(path.startsWith('/api/v1/') ? ['503'] : []),
      ];
      for (const status of central)
        if (!operation.responses[status]) missing.push(`${method.toUpperCase()} ${path} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  it('documents every error answer as {detail} JSON, never as a file', () => {
    const wrong: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const types = Object.keys(answer.content ?? {});
        const isDetail = answer.content?.['application/json']?.schema.required?.includes('detail');
        // The readiness check's 503 says which dependency is down, in a shape of its own.
        if (types.join() !== 'application/json' || (!isDetail && !path.startsWith('/api/health/')))
          wrong.push(`${method.toUpperCase()} ${path} ${status}: ${types.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('marks no parameter with a default as required (the validator fills it in)', () => {
    const wronglyRequired = operations.flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.required && parameter.schema.default !== undefined)
        .map((parameter) => `${method.toUpperCase()} ${path} ${parameter.in}:${parameter.name}`),
    );
    expect(wronglyRequired).toEqual([]);
  });
});

describe('answers the document lists', () => {
  it('a list read without skip and limit is served (they are optional)', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/products' });
    expect(response.statusCode).toBe(200);
    expect((response.json() as unknown[]).length).toBeGreaterThan(0);
  });

  it.each([
    [400, 'malformed JSON', 'application/json', '{"count": '],
    [415, 'an unknown content type', 'application/xml', '<count>1</count>'],
    [413, 'a body over the limit', 'application/json', `"${'я'.repeat(600_000)}"`],
  ])('%i {detail}, as documented, for %s sent to a route that takes a body', async (status, _, type, payload) => {
    const response = await shop.app.inject({
      method: 'DELETE',
      url: '/api/v1/cart/1',
      headers: { ...buyer.headers, 'content-type': type },
      payload,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
    expect(documented('delete', '/api/v1/cart/{item_id}')).toContain(String(status));
  });

  it('a query on a route that takes none is not read, so U+0000 in it is no 422 the route does not document', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/banners/all?x=%00' });
    expect(response.statusCode).toBe(200);
    expect(documented('get', '/api/v1/banners/all')).not.toContain('422');
  });
});

describe('the picture route', () => {
  const picture = () => `/api/v1/image/${encodeURIComponent(product.image)}`;

  it('is documented as the image types it serves, with its 304 and no JSON success', () => {
    const { operation } = operations.find(({ path }) => path === '/api/v1/image/{name}')!;
    expect(Object.keys(operation.responses['200']!.content!).sort()).toEqual(
      ['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/svg+xml', 'image/webp'].sort(),
    );
    expect(operation.responses['304']).toBeDefined();
    expect(operation.responses['304']!.content).toBeUndefined();
  });

  it('serves a picture as one of its documented types', async () => {
    const response = await shop.app.inject({ method: 'GET', url: picture() });
    expect(response.statusCode).toBe(200);
    const { operation } = operations.find(({ path }) => path === '/api/v1/image/{name}')!;
    expect(Object.keys(operation.responses['200']!.content!)).toContain(response.headers['content-type']);
  });

  it('answers a Range request with the whole picture: no 206 or 416 the document does not list', async () => {
    for (const range of ['bytes=0-10', 'bytes=999999-1000000']) {
      const response = await shop.app.inject({ method: 'GET', url: picture(), headers: { range } });
      expect([range, response.statusCode]).toEqual([range, 200]);
    }
  });

  it('answers a failed precondition 412 {detail}, as documented', async () => {
    const response = await shop.app.inject({ method: 'GET', url: picture(), headers: { 'if-match': '"other"' } });
    expect(response.statusCode).toBe(412);
    expect(response.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
    expect(documented('get', '/api/v1/image/{name}')).toContain('412');
  });
});

describe('a method a known path does not take', () => {
  it.each([
    ['POST', '/api/v1/products/categories/all', 'GET, HEAD'],
    ['PUT', '/api/v1/order', 'POST'],
    ['PATCH', '/api/v1/cart/5', 'GET, HEAD, DELETE'],
  ])('%s %s is 405 with Allow naming the methods it takes', async (method, url, allow) => {
    const response = await shop.app.inject({ method: method as 'GET', url, headers: buyer.headers });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toEqual({
      detail: `Метод ${method} не поддерживается для этого адреса; допустимы: ${allow}`,
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a path no route has is still 404, and so is a missing picture', async () => {
    for (const url of ['/api/v1/no-such-thing', '/api/v1/image/no-such-picture.svg']) {
      const response = await shop.app.inject({ method: 'GET', url });
      expect([url, response.statusCode]).toEqual([url, 404]);
      expect(response.headers.allow).toBeUndefined();
    }
  });
});
