/**
 * The outbox across real server processes on one PostgreSQL, sending to a real SMTP server started
 * here: two processes send each message once; a process killed (kill -9) while the SMTP server holds
 * its message loses none, and the one it was sending arrives at most twice, both with one Message-ID.
 */
import type { Product } from '../../../src/shared/api';
import type { FreshDatabase } from '../helpers/fresh-database';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp';
import {
  allProducts,
  explainFailure,
  freshPostgresDatabase,
  placeOrder,
  report,
  signUpMany,
  sleep,
  startServer,
  stopAllServers,
  waitUntil,
  type ServerProcess,
} from '../helpers/server-process';

jest.setTimeout(150_000);

const BOSS = 'boss@myagkiy-opt.example';

let smtp: TestSmtp;
let database: FreshDatabase;
let servers: ServerProcess[] = [];
let products: Product[];

const start = () =>
  startServer({
    databaseUrl: database.url,
    env: {
      SMTP_URL: smtp.url,
      MANAGER_EMAILS: BOSS,
      MAIL_POLL_MS: '200',
      MAIL_RETRY_SECONDS: '1',
      // A killed sender's message is sent again once this lease ends.
      MAIL_LEASE_SECONDS: '3',
    },
  });

beforeAll(async () => {
  smtp = await startTestSmtp();
  database = await freshPostgresDatabase();
}, 60_000);

afterAll(async () => {
  try {
    await stopAllServers();
  } finally {
    await database?.drop();
    await smtp?.stop();
  }
});

interface OutboxRow {
  id: number;
  message_id: string;
  recipient: string;
  sent_at: Date | null;
  attempts: number;
}

const outbox = () =>
  database.query<OutboxRow>('select id, message_id, recipient, sent_at, attempts from mail_outbox order by id');

/** The received messages by the outbox row they came from (its uuid is in the Message-ID). */
function copiesOf(row: OutboxRow): ReceivedMail[] {
  return smtp.received.filter((mail) => mail.parsed.messageId === `<${row.message_id}@myagkiy-opt.example>`);
}

/** Orders of one unit each, of different products, through the given servers in turn. */
async function placeOrders(count: number): Promise<number[]> {
  const buyers = await signUpMany(
    servers.map((server) => server.url),
    count,
  );
  const ids: number[] = [];
  for (const [index, buyer] of buyers.entries()) {
    const product = products.shift()!;
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    const answer = await placeOrder(servers[index % servers.length]!.url, buyer, [
      { product_id: product.id, variant_id: variant.id, quantity: 1 },
    ]);
    expect(answer.status).toBe(201);
    ids.push(answer.json<{ id: number }>().id);
  }
  return ids;
}

it('two processes on one database send each message exactly once', async () => {
  servers = await Promise.all([start(), start()]);
  products = (await allProducts(servers[0]!.url)).filter((product) => product.variants.some((v) => v.stock > 0));
  await explainFailure(
    () => servers,
    async () => {
      const ORDERS = 12;
      await placeOrders(ORDERS);
      // The buyer's message and the manager's, for each order.
      await smtp.waitFor(ORDERS * 2, 60_000);
      await sleep(3000); // room for a duplicate to show up, were there one
      const rows = await outbox();
      expect(rows).toHaveLength(ORDERS * 2);
      expect(smtp.received).toHaveLength(ORDERS * 2);
      for (const row of rows) {
        expect(row.sent_at).not.toBeNull();
        expect(copiesOf(row).map((mail) => mail.to)).toEqual([[row.recipient]]);
      }
      const sentBy = servers.map((server) => server.output().match(/"msg":"mail sent"/g)?.length ?? 0);
      expect(sentBy.reduce((sum, count) => sum + count, 0)).toBe(ORDERS * 2);
      report('mail, two processes', { orders: ORDERS, messages: rows.length, sentBy });
    },
  );
  await stopAllServers();
});

it('kill -9 while the SMTP server holds a message: nothing is lost, and that one is re-sent once with its Message-ID', async () => {
  smtp.received.length = 0;
  const before = (await outbox()).length;
  smtp.mode = { answer: 'hold' };
  const victim = await start();
  servers = [victim];
  let restarted: ServerProcess | undefined;
  await explainFailure(
    () => [victim, restarted],
    async () => {
      const [orderId] = await placeOrders(1);
      // The first message has been taken by the SMTP server, whose answer is held back.
      await smtp.waitFor(1, 30_000);
      await victim.kill9();
      smtp.mode = { answer: 'accept' };
      smtp.release();
      const rows = (await outbox()).slice(before);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.sent_at === null)).toBe(true);

      restarted = await start();
      servers = [restarted];
      await waitUntil(
        'both messages sent after the restart',
        async () => (await outbox()).slice(before).every((row) => row.sent_at !== null),
        30_000,
      );
      await sleep(1000);
      const copies = rows.map((row) => copiesOf(row).length);
      // The held one arrived twice (the server took it, the dead sender never heard so); the other once.
      expect(copies.sort()).toEqual([1, 2]);
      const twice = rows.find((row) => copiesOf(row).length === 2)!;
      const [first, second] = copiesOf(twice);
      expect(second!.parsed.messageId).toBe(first!.parsed.messageId);
      expect(second!.parsed.subject).toBe(first!.parsed.subject);
      expect(smtp.received.every((mail) => mail.parsed.subject?.includes(`№ ${orderId} `))).toBe(true);
      report('mail, kill -9 mid-send', { messages: rows.length, copies });
    },
  );
});
