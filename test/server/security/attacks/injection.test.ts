/**
 * Injection: SQL-looking input and path traversal. (The attack catalogue's scene and its rules:
 * test/server/helpers/attack-scene.ts.)
 */
import { users } from '../../../../src/server/db/schema';
import { allProducts, json, logIn, setCookie } from '../../helpers/test-app';
import { TEST_PASSWORD } from '../../helpers/shop-data';
import { attackScene, itLogsNoSecret, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('4. Injection: SQL-looking input and path traversal', () => {
  const SQL = [
    `' OR '1'='1`,
    `admin'--`,
    `' OR 1=1--`,
    `"; DROP TABLE users; --`,
    `1' UNION SELECT password_hash FROM users--`,
    `\\'; select pg_sleep(5); --`,
  ];

  it('SQL in the login → 401 "Неверный email или пароль" (never a token); JSON operators in the body → 422', async () => {
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      // Each refused login costs a full scrypt, so a few representative pairs.
      for (const [username, password] of [
        [`' OR '1'='1`, `' OR '1'='1`],
        [`admin'--`, 'anything'],
        [`${scene.victim.email}' --`, 'anything'],
        [scene.victim.email, `' OR '1'='1`],
        [scene.victim.email, `${TEST_PASSWORD}' OR '1'='1`],
      ]) {
        const response = await logIn(scene.shop.app, username!, password!);
        problems.push(...refusalProblems(`${username} / ${password}`, response, [401]));
        if (setCookie(response, 'refresh_token')) problems.push(`${username}: a refresh cookie was set`);
      }
      for (const payload of [
        { username: { $ne: null }, password: { $ne: null } },
        { username: scene.victim.email, password: { $gt: '' } },
        { username: [scene.victim.email], password: [TEST_PASSWORD] },
        { username: scene.victim.email, password: true },
      ]) {
        problems.push(
          ...refusalProblems(
            JSON.stringify(payload),
            await scene.shop.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload }),
            [422],
          ),
        );
      }
      expect(problems).toEqual([]);
    });
  });

  it('SQL in the category path, the art path, the ids and skip/limit → 404 or 422; the catalogue and the users are intact', async () => {
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const text of SQL) {
        for (const url of [
          `/api/v1/products/categories/${encodeURIComponent(text)}`,
          `/api/v1/products/${encodeURIComponent(text)}`,
        ]) {
          problems.push(...refusalProblems(url, await scene.shop.app.inject({ method: 'GET', url }), [404]));
        }
        for (const url of [
          `/api/v1/cart/${encodeURIComponent(text)}`,
          `/api/v1/order/${encodeURIComponent(text)}/status`,
          `/api/v1/address/${encodeURIComponent(text)}`,
        ]) {
          problems.push(
            ...refusalProblems(
              url,
              await scene.shop.app.inject({ method: 'GET', url, headers: scene.attacker.headers }),
              [422],
            ),
          );
        }
        for (const query of [
          { skip: text },
          { limit: text },
          { skip: `0; ${text}` },
          { limit: `10 ${text}` },
        ] as Record<string, string>[]) {
          for (const url of [
            '/api/v1/products/',
            '/api/v1/products/popular',
            `/api/v1/products/categories/${encodeURIComponent('Мишки')}`,
          ]) {
            problems.push(
              ...refusalProblems(
                `${url} ${JSON.stringify(query)}`,
                await scene.shop.app.inject({ method: 'GET', url, query }),
                [404, 422],
              ),
            );
          }
        }
      }
      expect(problems).toEqual([]);
    });
    // The tables are all still there and the victim can still sign in.
    expect((await allProducts(scene.shop.app)).length).toBe(scene.catalogue.length);
    const login = await logIn(scene.shop.app, scene.victim.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    scene.secrets.add(json<{ access_token: string }>(login).access_token).add(setCookie(login, 'refresh_token')!.value);
  });

  it('an e-mail full of SQL is stored verbatim as an e-mail, and nothing else happens', async () => {
    const email = `o'brien');drop/**/table/**/users;--@example.com`;
    const before = await scene.shop.app.database.db.select({ id: users.id }).from(users);
    const response = await scene.shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password: TEST_PASSWORD, consent: 'true' },
    });
    expect(response.statusCode).toBe(201);
    expect(json<{ email: string }>(response).email).toBe(email);
    const after = await scene.shop.app.database.db.select({ id: users.id, email: users.email }).from(users);
    expect(after).toHaveLength(before.length + 1);
    expect(after.map((row) => row.email)).toContain(email);
  });

  const TRAVERSALS = [
    '..%2F..%2Fpackage.json',
    '%252e%252e%252fpackage.json',
    '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '..%255c..%255cpackage.json',
    '..%5C..%5Cpackage.json',
    '..%5C..%5C..%5C.env',
    '%5Cetc%5Cpasswd',
    'C%3A%5CWindows%5Cwin.ini',
    '%2Fetc%2Fpasswd',
    '%2F%2Fetc%2Fpasswd',
    'file%3A%2F%2F%2Fetc%2Fpasswd',
    'MO-1001.svg%00.png',
    'MO-1001.svg%00',
    '%00',
    '.env',
    '.env.svg',
    'package.json',
    '..%2Fpackage.json%00.svg',
    '%E2%80%A4%E2%80%A4%2Fpackage.json',
    '%EF%BC%8E%EF%BC%8E%EF%BC%8Fpackage.json',
    '%C0%AE%C0%AE%2Fpackage.json',
    '%C0%AE%C0%AE%C0%AFetc%C0%AFpasswd',
    '%E0%80%AE%E0%80%AE%2Fpackage.json',
    '..%c1%9c..%c1%9cpackage.json',
    '....%2F%2F....%2F%2Fpackage.json',
    '.%2E%2Fpackage.json',
    `MO-1001.svg%2F${'..%2F'.repeat(10)}etc%2Fpasswd`,
    `${'a'.repeat(600)}.svg`,
    '%',
    '%zz.svg',
  ];

  it.each(TRAVERSALS)(
    'GET /api/v1/image/%s → a clean 4xx, never a file from outside the image folder',
    async (name) => {
      const response = await scene.shop.app.inject({ method: 'GET', url: `/api/v1/image/${name}` });
      expect(refusalProblems(name, response, [400, 404, 414, 422])).toEqual([]);
      expect(response.body).not.toMatch(/root:|"dependencies"|DATABASE_URL|\[fonts\]|buildApp/);
    },
  );

  it.each([
    '/api/v1/image/../../package.json',
    '/api/v1/image/..\\..\\package.json',
    '/api/v1/image//etc/passwd',
    '/api/v1/image/./.env',
    '/api/v1/image/MO-1001.svg/../../../package.json',
  ])('the raw path %s → a clean 4xx', async (url) => {
    const response = await scene.shop.app.inject({ method: 'GET', url });
    expect(refusalProblems(url, response, [400, 404, 422])).toEqual([]);
    expect(response.body).not.toMatch(/root:|"dependencies"|buildApp/);
  });
});

itLogsNoSecret(scene);
