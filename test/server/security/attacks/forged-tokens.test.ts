/**
 * Forged, stolen and malformed access tokens: none of them is taken for the victim. (The attack
 * catalogue's scene and its rules: test/server/helpers/attack-scene.ts.)
 */
import { createHmac } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { bearer, sessionIdOf } from '../../helpers/test-app';
import { attackScene, itLogsNoSecret, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('2. Forged, stolen and malformed access tokens', () => {
  const b64 = (value: object | string) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const now = () => Math.floor(Date.now() / 1000);
  // In the victim's own session, so that only what each test forges can make the shop refuse it.
  const claims = (sub: number, exp = now() + 600) => ({
    sub: String(sub),
    sid: sessionIdOf(scene.victim.token),
    iat: now() - 10,
    exp,
  });
  /** A JWT signed by hand with HMAC (`key` null: no signature at all). */
  function jwt(
    header: object,
    payload: object,
    key: string | null,
    hash: 'sha256' | 'sha384' | 'sha512' = 'sha256',
  ): string {
    const signed = `${b64(header)}.${b64(payload)}`;
    return key === null ? `${signed}.` : `${signed}.${createHmac(hash, key).update(signed).digest('base64url')}`;
  }

  /** Requests that would read or change the victim's data if the token were taken for the victim's. */
  const victimCalls = (headers: Record<string, string | string[]>, cookies?: Record<string, string>, whoAmI = true) => [
    ...(whoAmI
      ? [scene.shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers, ...(cookies ? { cookies } : {}) })]
      : []),
    scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/cart/${scene.victim.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/order/${scene.victim.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    scene.shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/cart/${scene.victimLines[0]}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    scene.shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${scene.victimOrder.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    scene.shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/address/${scene.victimAddresses[1]!.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    scene.shop.app.inject({
      method: 'PUT',
      url: '/api/v1/cart/count',
      query: { item_id: String(scene.victimLines[1]), count: '7' },
      headers,
      ...(cookies ? { cookies } : {}),
    }),
  ];

  async function expectAllRefused(
    label: string,
    headers: Record<string, string | string[]>,
    cookies?: Record<string, string>,
    allowed = [401],
  ) {
    const problems: string[] = [];
    // With a token that is the attacker's own, /auth/user rightly answers the attacker: leave it out.
    for (const response of await Promise.all(victimCalls(headers, cookies, allowed.length === 1))) {
      problems.push(
        ...refusalProblems(`${label} ${response.raw.req.method} ${response.raw.req.url}`, response, allowed),
      );
    }
    expect(problems).toEqual([]);
  }

  it("the hand-made signer is right: with the shop's secret it makes a token the shop accepts (control)", async () => {
    const genuine = jwt({ alg: 'HS256', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret);
    const response = await scene.shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: bearer(genuine) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: scene.victim.id, email: scene.victim.email, role: 'buyer' });
  });

  it('no token, or "Bearer" with no token → 401 on every call; nothing changes', async () => {
    await scene.changesNothing(async () => {
      await expectAllRefused('none', {});
      for (const authorization of [
        'Bearer',
        'Bearer ',
        'Bearer    ',
        'bearer',
        'Token',
        'Basic ' + b64('victim:password'),
        scene.victim.token,
      ]) {
        await expectAllRefused(JSON.stringify(authorization), { authorization });
      }
    });
  });

  it("an expired token signed with the shop's own secret → 401; nothing changes", async () => {
    await scene.changesNothing(async () => {
      const expired = createSigner({ key: scene.jwtSecret, algorithm: 'HS256' })(claims(scene.victim.id, now() - 1));
      scene.secrets.add(expired);
      await expectAllRefused('expired', bearer(expired));
      // Long expired, and one whose not-before lies in the future.
      await expectAllRefused(
        'long expired',
        bearer(jwt({ alg: 'HS256' }, { sub: String(scene.victim.id), iat: 1, exp: 2 }, scene.jwtSecret)),
      );
      await expectAllRefused(
        'not yet valid',
        bearer(jwt({ alg: 'HS256' }, { ...claims(scene.victim.id), nbf: now() + 3600 }, scene.jwtSecret)),
      );
    });
  });

  it.each(['none', 'None', 'NONE', 'nOnE'])(
    "alg %j (unsigned, empty signature, or the attacker's signature kept) → 401",
    async (alg) => {
      await scene.changesNothing(async () => {
        const unsigned = jwt({ alg, typ: 'JWT' }, claims(scene.victim.id), null);
        const withAttackerSignature = `${unsigned}${scene.attacker.token.split('.')[2]}`;
        const signedAnyway = jwt({ alg, typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret);
        for (const token of [unsigned, unsigned.slice(0, -1), withAttackerSignature, signedAnyway]) {
          await expectAllRefused(`alg ${alg}`, bearer(token));
        }
      });
    },
  );

  it("the attacker's own token with the payload changed to the victim's id and the old signature kept → 401", async () => {
    await scene.changesNothing(async () => {
      const [header, payload, signature] = scene.attacker.token.split('.') as [string, string, string];
      const original = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      for (const sub of [
        String(scene.victim.id),
        scene.victim.id,
        `${scene.victim.id}`.padStart(3, '0'),
        [String(scene.victim.id)],
      ]) {
        await expectAllRefused(
          `sub ${JSON.stringify(sub)}`,
          bearer(`${header}.${b64({ ...original, sub })}.${signature}`),
        );
      }
      // A longer life for the attacker's own token is refused just the same.
      await expectAllRefused(
        'exp pushed',
        bearer(`${header}.${b64({ ...original, exp: now() + 10 * 365 * 86400 })}.${signature}`),
        undefined,
        [401],
      );
    });
  });

  it.each([
    'secret',
    'changeme',
    '',
    'password',
    'jwt_secret',
    'Мягкий Опт',
    'Мягкий опт',
    'myagkiy-opt',
    'myagkiy_opt',
    'your-256-bit-secret',
  ])('a token signed with the guessable secret %j → 401', async (guess) => {
    await scene.changesNothing(async () => {
      await expectAllRefused(
        `secret ${guess}`,
        bearer(jwt({ alg: 'HS256', typ: 'JWT' }, claims(scene.victim.id), guess)),
      );
    });
  });

  it("other algorithms in the header (RS256, HS384, HS512, ES256, PS256), even signed with the shop's secret → 401", async () => {
    await scene.changesNothing(async () => {
      const forged: [string, string][] = [
        // Algorithm confusion: RS256 claimed, the "public key" being the HMAC secret.
        ['RS256/HMAC', jwt({ alg: 'RS256', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret)],
        ['HS384', jwt({ alg: 'HS384', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret, 'sha384')],
        ['HS512', jwt({ alg: 'HS512', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret, 'sha512')],
        ['ES256', jwt({ alg: 'ES256', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret)],
        ['PS256', jwt({ alg: 'PS256', typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret)],
        ['no alg', jwt({ typ: 'JWT' }, claims(scene.victim.id), scene.jwtSecret)],
        [
          'jwk header',
          jwt({ alg: 'HS256', jwk: { kty: 'oct', k: b64('attacker key') } }, claims(scene.victim.id), 'attacker key'),
        ],
      ];
      for (const [label, token] of forged) await expectAllRefused(label, bearer(token));
    });
  });

  it("the victim's identity asserted another way: sub missing, zero, negative, SQL; the token in a cookie instead of the header → 401", async () => {
    await scene.changesNothing(async () => {
      for (const payload of [
        { exp: now() + 600 },
        { sub: '0', exp: now() + 600 },
        { sub: '-1', exp: now() + 600 },
        { sub: '1 OR 1=1', exp: now() + 600 },
      ]) {
        await expectAllRefused(JSON.stringify(payload), bearer(jwt({ alg: 'HS256' }, payload, scene.jwtSecret)));
      }
      // A token anywhere but the Authorization header is no token.
      await expectAllRefused(
        'cookie',
        {},
        {
          access_token: scene.victim.token,
          token: scene.victim.token,
          authorization: `Bearer ${scene.victim.token}`,
          jwt: scene.victim.token,
        },
      );
      await expectAllRefused('x-access-token', {
        'x-access-token': scene.victim.token,
        'x-auth-token': scene.victim.token,
      });
    });
  });

  it('two tokens: in one header (forged after real, real after forged), or two headers → never the victim', async () => {
    const forged = jwt({ alg: 'none' }, claims(scene.victim.id), null);
    await scene.changesNothing(async () => {
      for (const authorization of [
        `Bearer ${scene.attacker.token} ${forged}`,
        `Bearer ${forged} ${scene.attacker.token}`,
        `Bearer ${scene.attacker.token}, Bearer ${forged}`,
        `Bearer ${scene.attacker.token},${forged}`,
      ]) {
        await expectAllRefused('one header', { authorization });
      }
      // Two Authorization headers: one of them is used, never to the victim's benefit; with the
      // attacker's token the calls are refused as they would be anyway.
      await expectAllRefused(
        'two headers',
        { authorization: [`Bearer ${forged}`, `Bearer ${scene.attacker.token}`] },
        undefined,
        [401, 403, 404],
      );
      await expectAllRefused(
        'two headers',
        { authorization: [`Bearer ${scene.attacker.token}`, `Bearer ${forged}`] },
        undefined,
        [401, 403, 404],
      );
    });
  });
});

itLogsNoSecret(scene);
