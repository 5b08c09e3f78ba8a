/**
 * The managers' commands run as they are run by hand (`npm run users`, `npm run orders`): a
 * separate process on a fresh database, the embedded one or PostgreSQL (TEST_DATABASE_URL).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/database';
import { auditLog, companies, exchangeSessions, orderStatusHistory, orders, users } from '../db/schema';
import { createFreshDatabase, type FreshDatabase } from '../../../test/server/helpers/fresh-database';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const usesPostgres = Boolean(process.env.TEST_DATABASE_URL);
const CLI_TIMEOUT = 60_000;

let postgres: FreshDatabase | null = null;
let dataDir: string | null = null;
let env: NodeJS.ProcessEnv;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: 'users' | 'orders', ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [`src/server/cli/${command}.ts`, ...args], {
      cwd: ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Set-up and checks straight in the database, closed again before a command runs (PGlite is one process's). */
async function withDb<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: postgres?.url, dataDir });
  try {
    await database.migrate(database.db);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

let userId: number;
let orderId: number;

beforeAll(async () => {
  if (usesPostgres) postgres = await createFreshDatabase(process.env.TEST_DATABASE_URL!, 'cli_test');
  else dataDir = await mkdtemp(path.join(tmpdir(), 'cli-test-'));
  env = { ...process.env, DATABASE_URL: postgres?.url ?? '', DATA_DIR: dataDir ?? '' };
  [userId, orderId] = await withDb(async (db) => {
    const [company] = await db.insert(companies).values({ name: 'olga@example.ru' }).returning({ id: companies.id });
    const [user] = await db
      .insert(users)
      .values({ email: 'olga@example.ru', passwordHash: 'x', companyId: company!.id, companyRole: 'owner' })
      .returning({ id: users.id });
    const [order] = await db
      .insert(orders)
      .values({
        userId: user!.id,
        companyId: company!.id,
        status: 'Создан',
        address: 'г. Тула, ул. Ленина, д. 1',
        totalPrice: '100.00',
      })
      .returning({ id: orders.id });
    return [user!.id, order!.id];
  });
}, CLI_TIMEOUT);

afterAll(async () => {
  await postgres?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const roleOf = () =>
  withDb(async (db) => (await db.select({ role: users.role }).from(users).where(eq(users.id, userId)))[0]!.role);

describe('npm run users', () => {
  it(
    'grant-manager and revoke-manager change the role (e-mail in any case); list shows it',
    async () => {
      const granted = await run('users', 'grant-manager', 'Olga@Example.ru');
      expect(granted).toEqual({ code: 0, stdout: 'olga@example.ru: менеджер\n', stderr: '' });
      expect(await roleOf()).toBe('manager');
      expect((await run('users', 'list')).stdout).toBe(`${userId}\tolga@example.ru\tменеджер\n`);

      expect((await run('users', 'revoke-manager', 'olga@example.ru')).code).toBe(0);
      expect(await roleOf()).toBe('buyer');
      // Both changes are in the audit log, by the command line (nobody); granting twice logs once.
      expect((await run('users', 'revoke-manager', 'olga@example.ru')).code).toBe(0);
      const logged = await withDb((db) =>
        db
          .select({
            by: auditLog.byUserId,
            action: auditLog.action,
            entityId: auditLog.entityId,
            after: auditLog.after,
          })
          .from(auditLog)
          .where(eq(auditLog.entity, 'user'))
          .orderBy(asc(auditLog.id)),
      );
      expect(logged).toEqual([
        {
          by: null,
          action: 'user.role',
          entityId: String(userId),
          after: { email: 'olga@example.ru', role: 'manager' },
        },
        { by: null, action: 'user.role', entityId: String(userId), after: { email: 'olga@example.ru', role: 'buyer' } },
      ]);
    },
    CLI_TIMEOUT,
  );

  it(
    'grant-exchange and revoke-exchange give and take the 1С exchange access, in the audit log; revoking ends its sessions',
    async () => {
      const exchangeOf = () =>
        withDb(
          async (db) =>
            (await db.select({ access: users.exchangeAccess }).from(users).where(eq(users.id, userId)))[0]!.access,
        );
      expect(await run('users', 'grant-exchange', 'OLGA@example.ru')).toEqual({
        code: 0,
        stdout: 'olga@example.ru: обмен с 1С разрешён\n',
        stderr: '',
      });
      expect(await exchangeOf()).toBe(true);
      await withDb((db) =>
        db.insert(exchangeSessions).values({ cookieHash: 'cli-test', userId, clientIp: '10.0.0.1' }),
      );
      expect((await run('users', 'revoke-exchange', 'olga@example.ru')).stdout).toBe(
        'olga@example.ru: обмен с 1С запрещён\n',
      );
      expect(await exchangeOf()).toBe(false);
      expect(
        await withDb((db) => db.select().from(exchangeSessions).where(eq(exchangeSessions.userId, userId))),
      ).toEqual([]);
      const logged = await withDb((db) =>
        db
          .select({ action: auditLog.action, after: auditLog.after })
          .from(auditLog)
          .where(eq(auditLog.action, 'user.exchange'))
          .orderBy(asc(auditLog.id)),
      );
      expect(logged).toEqual([
        { action: 'user.exchange', after: { email: 'olga@example.ru', exchange: true } },
        { action: 'user.exchange', after: { email: 'olga@example.ru', exchange: false } },
      ]);
      expect((await run('users', 'grant-exchange', 'nobody@example.ru')).code).toBe(1);
    },
    CLI_TIMEOUT,
  );

  it(
    'an unknown e-mail → a Russian message on stderr and exit code 1; nothing changes',
    async () => {
      const answer = await run('users', 'grant-manager', 'nobody@example.ru');
      expect(answer).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Пользователь с e-mail «nobody@example.ru» не найден\n',
      });
      expect(await roleOf()).toBe('buyer');
    },
    CLI_TIMEOUT,
  );

  it(
    'an unknown command or a missing e-mail → usage and exit code 2',
    async () => {
      for (const args of [['promote', 'olga@example.ru'], ['grant-manager'], []]) {
        const answer = await run('users', ...args);
        expect([args, answer.code]).toEqual([args, 2]);
        expect(answer.stderr).toContain('Использование');
      }
    },
    CLI_TIMEOUT,
  );
});

describe('npm run orders', () => {
  it(
    'ids are strict: not decimal digits or beyond int4 → a clear message and exit code 1',
    async () => {
      for (const id of ['0x1', '1e3', '-1', '1.5', '0', '2147483648', '99999999999999999999']) {
        const answer = await run('orders', 'status', id, 'Отменён');
        expect([id, answer.code]).toEqual([id, 1]);
        expect(answer.stderr).toContain(`Номер заказа должен быть целым числом от 1 до 2147483647, а не «${id}»`);
      }
      expect(await withDb(async (db) => (await db.select().from(orders))[0]!.status)).toBe('Создан');
    },
    CLI_TIMEOUT * 2,
  );

  it(
    'follows the state machine: «Ожидает оплаты» is refused (invoice only), a forbidden step names both statuses',
    async () => {
      expect(await run('orders', 'status', String(orderId), 'Ожидает', 'оплаты')).toEqual({
        code: 1,
        stdout: '',
        stderr: `Заказ #${orderId} переходит в статус «Ожидает оплаты» только при выставлении счёта\n`,
      });
      expect(await run('orders', 'status', String(orderId), 'Доставлен')).toEqual({
        code: 1,
        stdout: '',
        stderr: `Заказ #${orderId} нельзя перевести из статуса «Создан» в статус «Доставлен»\n`,
      });
      expect((await run('orders', 'status', '2000000000', 'Отменён')).stderr).toBe('Заказ не найден\n');
    },
    CLI_TIMEOUT,
  );

  it(
    'an allowed step is made and written to the history with no account and the comment',
    async () => {
      const answer = await run('orders', 'status', String(orderId), 'Отменён', '--comment', 'Дубль', 'заказа');
      expect(answer).toEqual({ code: 0, stdout: `Заказ #${orderId}: Отменён\n`, stderr: '' });
      const history = await withDb((db) =>
        db
          .select({
            from: orderStatusHistory.fromStatus,
            to: orderStatusHistory.toStatus,
            by: orderStatusHistory.byUserId,
            comment: orderStatusHistory.comment,
          })
          .from(orderStatusHistory)
          .where(eq(orderStatusHistory.orderId, orderId)),
      );
      expect(history).toEqual([{ from: 'Создан', to: 'Отменён', by: null, comment: 'Дубль заказа' }]);
    },
    CLI_TIMEOUT,
  );

  it(
    '«Отправлен» takes the carrier and the tracking number, as the back office does; wrong ones are refused',
    async () => {
      const paidId = await withDb(async (db) => {
        const [order] = await db
          .insert(orders)
          .values({ userId, status: 'Оплачен', address: 'г. Тула, ул. Ленина, д. 1', totalPrice: '100.00' })
          .returning({ id: orders.id });
        return order!.id;
      });
      const id = String(paidId);
      expect(await run('orders', 'status', id, 'Отправлен', '--carrier', 'Грузовичкоф')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('Неизвестный перевозчик «Грузовичкоф». Перевозчики: СДЭК, Почта России'),
      });
      expect(await run('orders', 'status', id, 'Отправлен', '--carrier', 'СДЭК', '--tracking', 'абв/1')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('Трек-номер «абв/1» не подходит'),
      });
      expect((await run('orders', 'status', id, 'Отправлен', '--tracking', '123', '--colour', 'x')).code).toBe(2);
      // A number without a carrier is the workflow's own refusal, as in the back office.
      expect((await run('orders', 'status', id, 'Отправлен', '--tracking', '123')).stderr).toBe(
        'Укажите перевозчика, которому передан трек-номер\n',
      );

      const answer = await run(
        'orders',
        'status',
        id,
        'Отправлен',
        '--carrier',
        'Почта',
        'России',
        '--tracking',
        '80085 1234',
        '--comment',
        'Отгружено утром',
      );
      expect(answer).toEqual({ code: 0, stdout: `Заказ #${id}: Отправлен\n`, stderr: '' });
      const history = await withDb((db) =>
        db
          .select({
            to: orderStatusHistory.toStatus,
            carrier: orderStatusHistory.carrier,
            number: orderStatusHistory.trackingNumber,
            comment: orderStatusHistory.comment,
          })
          .from(orderStatusHistory)
          .where(eq(orderStatusHistory.orderId, paidId)),
      );
      expect(history).toEqual([
        { to: 'Отправлен', carrier: 'Почта России', number: '80085 1234', comment: 'Отгружено утром' },
      ]);
    },
    CLI_TIMEOUT * 2,
  );
});
