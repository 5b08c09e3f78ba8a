// Scale: catalogue reads and orders per second with 1, 2 and 3 server processes on one
// PostgreSQL database behind Debian's nginx, all on this machine, and where the CPU went meanwhile:
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- scale
// Not in the default run. Each count gets a fresh database and a cluster of its own
// (deploy/cluster.ts, as `npm run cluster` runs it); everything is stopped and dropped even when a
// step fails.
import { constants, cpus } from 'node:os';
import { Client } from 'pg';
import { childrenOf, startCluster, type Cluster } from '../deploy/cluster';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { AS_A_BROWSER, READS } from './api-load';
import {
  addCpu,
  buildServer,
  load,
  machine,
  measureCpu,
  percentile,
  startProcess,
  type CpuUse,
  type LoadResult,
  type Process,
} from './lib';
import { anyOf, ORDER_BENCH_ENV, register, storm } from './orders-load';

const PROCESS_COUNTS = [1, 2, 3];
const BUYERS = 50;
const WARM_UP_SECONDS = 2;
/** The stock given to every variant ordered from: no order is refused as sold out. */
const PLENTY = 1_000_000;
/** The groups of processes whose CPU time is counted, in the order the report shows them. */
const COMPONENTS = ['servers', 'nginx', 'PostgreSQL', 'bench'] as const;
type Component = (typeof COMPONENTS)[number];

export interface ScaleRow {
  processes: number;
  /** The bare Fastify route, directly (not through nginx), measured just before this count's reads. */
  reference: LoadResult;
  reads: { read: string; result: LoadResult }[];
  /** The three reads' measured seconds together. */
  readsCpu: CpuUse;
  readRequests: number;
  orders: {
    perSecond: number;
    p50: number;
    p99: number;
    requests: number;
    refused: number;
    /** Each status other than 201 and how many times it was answered. */
    refusals: [status: number, count: number][];
  };
  ordersCpu: CpuUse;
  /** Variants the orders pick from. */
  variants: number;
}

/**
 * The processes behind each figure: the cluster's servers, nginx's master and workers, PostgreSQL's
 * backends on this database and its own background processes (the WAL writer and the checkpointer
 * serve every database of the server: whatever else uses it is counted there too), and this
 * process, where autocannon and the buyers run.
 */
function componentsOf(cluster: Cluster, sql: Client): () => Promise<Record<Component, number[]>> {
  return async () => ({
    servers: cluster.servers.map((server) => server.serverPid),
    nginx: [cluster.nginx.pid, ...childrenOf(cluster.nginx.pid)],
    PostgreSQL: (
      await sql.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() or datname is null',
      )
    ).rows.map(({ pid }) => pid),
    bench: [process.pid],
  });
}

/**
 * What an interrupted run must still stop or drop, newest last. The cluster's processes and nginx
 * run in process groups of their own, which a terminal's Ctrl-C does not reach: they would go on
 * serving, and the fresh database would stay.
 */
const leftToUndo = new Set<() => Promise<void>>();

function undoAndExit(signal: NodeJS.Signals): void {
  console.log(`${signal}: stopping nginx and the processes, dropping the database…`);
  // Taken at once: the run goes on meanwhile, and its finally blocks take theirs out of the set.
  const undos = [...leftToUndo].reverse();
  void (async () => {
    for (const undo of undos) await undo().catch(() => {});
    process.exit(128 + constants.signals[signal]);
  })();
}

async function measureCount(
  adminUrl: string,
  processes: number,
  seconds: number,
  reference: Process,
): Promise<ScaleRow> {
  const database = await createFreshDatabase(adminUrl, 'shop_scale');
  const sql = new Client({ connectionString: database.url });
  let starting: Promise<Cluster> | undefined;
  const cleanUp = async () => {
    // Started or still starting: stopped once it has (a start that fails stops what it started).
    await starting?.then(
      (cluster) => cluster.stop(),
      () => {},
    );
    await sql.end().catch(() => {});
    await database.drop();
  };
  leftToUndo.add(cleanUp);
  try {
    await sql.connect();
    starting = startCluster({
      processes,
      databaseUrl: database.url,
      port: 0,
      firstServerPort: 0,
      // All the load comes from 127.0.0.1: nginx's 50 requests a second per client would be the figure.
      withoutRequestRateLimits: true,
      // As bench/orders-load.ts: 50 buyers sign up and in from one address (through nginx, the
      // servers see 127.0.0.1 for all), then order again and again without paying.
      env: ORDER_BENCH_ENV,
    });
    const cluster = await starting;
    const shop = cluster.url;
    const components = componentsOf(cluster, sql);

    const referenceResult = await load(`${reference.url}/`, { seconds, headers: AS_A_BROWSER });
    const reads: ScaleRow['reads'] = [];
    let readsCpu: CpuUse | undefined;
    for (const [read, path] of READS) {
      await load(`${shop}${path}`, { seconds: WARM_UP_SECONDS, headers: AS_A_BROWSER });
      const { result, cpu } = await measureCpu(components, () =>
        load(`${shop}${path}`, { seconds, headers: AS_A_BROWSER }),
      );
      reads.push({ read, result });
      readsCpu = readsCpu ? addCpu(readsCpu, cpu) : cpu;
    }

    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, index) => register(shop, index)));
    const { rows: pool } = await sql.query<{ id: number; product_id: number }>(
      `update variants set stock = $1
       where product_id in (select id from products where hidden_at is null)
       returning id, product_id`,
      [PLENTY],
    );
    const pick = anyOf(pool);
    await storm(shop, buyers, pick, WARM_UP_SECONDS);
    const { result: run, cpu: ordersCpu } = await measureCpu(components, () => storm(shop, buyers, pick, seconds));

    return {
      processes,
      reference: referenceResult,
      reads,
      readsCpu: readsCpu!,
      readRequests: reads.reduce((sum, { result }) => sum + result.requestsPerSecond * seconds, 0),
      orders: {
        perSecond: Math.round(run.created / seconds),
        p50: Math.round(percentile(run.latencies, 50)),
        p99: Math.round(percentile(run.latencies, 99)),
        requests: run.latencies.length,
        refused: run.latencies.length - run.created,
        refusals: [...run.statuses].filter(([status]) => status !== 201),
      },
      ordersCpu,
      variants: pool.length,
    };
  } finally {
    leftToUndo.delete(cleanUp);
    await cleanUp();
  }
}

export async function benchScale(adminUrl: string, seconds: number): Promise<ScaleRow[]> {
  buildServer();
  const reference = await startProcess('bench/reference-server.ts');
  const stopReference = () => reference.stop();
  leftToUndo.add(stopReference);
  process.on('SIGINT', undoAndExit);
  process.on('SIGTERM', undoAndExit);
  try {
    await load(`${reference.url}/`, { seconds: WARM_UP_SECONDS });
    const rows: ScaleRow[] = [];
    for (const processes of PROCESS_COUNTS) {
      console.log(`-- ${processes} process${processes > 1 ? 'es' : ''}`);
      rows.push(await measureCount(adminUrl, processes, seconds, reference));
    }
    return rows;
  } finally {
    process.off('SIGINT', undoAndExit);
    process.off('SIGTERM', undoAndExit);
    leftToUndo.delete(stopReference);
    await reference.stop();
  }
}

/** Share of one core over the interval: 100 is one core busy throughout. */
const percentOfCore = (ms: number, cpu: CpuUse) => Math.round((ms / cpu.wallMs) * 100);
const groupMs = (cpu: CpuUse, component: Component) => cpu.groupsMs[component] ?? 0;
const otherMs = (cpu: CpuUse) =>
  Math.max(0, cpu.machineMs - COMPONENTS.reduce((sum, component) => sum + groupMs(cpu, component), 0));
/** The shop's own CPU (servers, nginx, PostgreSQL), without the load generator's. */
const shopMs = (cpu: CpuUse) => groupMs(cpu, 'servers') + groupMs(cpu, 'nginx') + groupMs(cpu, 'PostgreSQL');
const perRequest = (ms: number) => (ms < 1 ? `${Math.round(ms * 1000)} µs` : `${ms.toFixed(1)} ms`);
const times = (value: number) => `${value.toFixed(2)}×`;

function cpuRow(processes: number, phase: string, cpu: CpuUse, requests: number): string {
  const share = (component: Component) => `${percentOfCore(groupMs(cpu, component), cpu)}%`;
  const cost = (['servers', 'nginx', 'PostgreSQL'] as const)
    .map((component) => perRequest(groupMs(cpu, component) / requests))
    .join(' / ');
  return `| ${processes} | ${phase} | ${COMPONENTS.map(share).join(' | ')} | ${percentOfCore(otherMs(cpu), cpu)}% | ${percentOfCore(cpu.machineMs, cpu)}% | ${cost} |`;
}

/**
 * What the figures say, written from them: how far each count got beyond one process, how busy
 * the machine was and with what, and what the CPU cost of a request projects for more cores.
 */
function explanation(rows: ScaleRow[], cores: number): string {
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const capacity = cores * 100;
  const readGain = (row: ScaleRow) =>
    row.reads.reduce(
      (sum, { result }, index) => sum + result.requestsPerSecond / first.reads[index]!.result.requestsPerSecond,
      0,
    ) / row.reads.length;
  const each = (share: (row: ScaleRow) => string) => rows.map(share).join(', ');
  const percent = (ms: (cpu: CpuUse) => number, phase: 'readsCpu' | 'ordersCpu') => (row: ScaleRow) =>
    `${percentOfCore(ms(row[phase]), row[phase])}%`;
  const busy = (cpu: CpuUse) => cpu.machineMs;
  const servers = (cpu: CpuUse) => groupMs(cpu, 'servers');
  const bench = (cpu: CpuUse) => groupMs(cpu, 'bench');
  const saturated = percentOfCore(last.readsCpu.machineMs, last.readsCpu) >= capacity * 0.9;

  // The costs of the least crowded run: on a machine with a core for each process, a request
  // costs what it costs without others waiting for the same cores.
  const read = {
    servers: servers(first.readsCpu) / first.readRequests,
    nginx: groupMs(first.readsCpu, 'nginx') / first.readRequests,
    shop: shopMs(first.readsCpu) / first.readRequests,
  };
  const order = {
    servers: servers(first.ordersCpu) / first.orders.requests,
    shop: shopMs(first.ordersCpu) / first.orders.requests,
  };
  const projection = (cost: { servers: number; shop: number }) =>
    [4, 8, 16]
      .map(
        (cores) =>
          `${cores} cores ≈ ${Math.round((cores * 1000) / cost.shop)}/s (${Math.ceil((cores * cost.servers) / cost.shop)} processes)`,
      )
      .join(', ');

  return [
    `**Reading the curve** (generated from this run's figures, ${machine()}). Against one process (for the reads, the mean of the three reads' ratios), ${rows
      .slice(1)
      .map(
        (row) =>
          `${row.processes} give ${times(readGain(row))} the reads and ${times(row.orders.perSecond / first.orders.perSecond)} the orders`,
      )
      .join('; ')}.`,
    `During the reads the machine was ${each(percent(busy, 'readsCpu'))} busy of its ${capacity}% (${cores} cores), of which other work on the machine took ${each(percent(otherMs, 'readsCpu'))}; during the orders ${each(percent(busy, 'ordersCpu'))}, other work ${each(percent(otherMs, 'ordersCpu'))}. ` +
      (saturated
        ? `With ${last.processes} processes every core was busy: another process only shares the same cores with the others, nginx, PostgreSQL, that other work and the load generator (autocannon and the buyers, in the bench's own process: ${each(percent(bench, 'readsCpu'))} during the reads). The servers together got ${each(percent(servers, 'readsCpu'))} of a core during the reads and ${each(percent(servers, 'ordersCpu'))} during the orders, and a read cost them ${rows.map((row) => perRequest(servers(row.readsCpu) / row.readRequests)).join(', ')} of CPU.`
        : `With ${last.processes} processes the cores were not all busy: the limit is not CPU here (a component at about 100% is one thread at its end).`),
    `With one process a read cost the servers ${perRequest(read.servers)} of CPU, nginx ${perRequest(read.nginx)}, the shop as a whole (servers, nginx, PostgreSQL) ${perRequest(read.shop)}; an order cost the servers ${perRequest(order.servers)} and the shop ${perRequest(order.shop)}. ` +
      `A process runs its requests on one JavaScript thread: at most about ${Math.round(1000 / read.servers)} reads/s each. Cores given to the shop alone (the load generator elsewhere) serve about cores ÷ CPU per request, if that cost stays as measured: reads ${projection(read)}; orders ${projection(order)}. ` +
      `These are ceilings by CPU. nginx runs one worker here (deploy/cluster.ts), at most one core: about ${Math.round(1000 / read.nginx)} reads/s, so a larger balancer needs \`worker_processes auto\`. An order also waits for PostgreSQL to write its commit to disk and for the rows it updates (a product's units ordered), which more cores do not shorten.`,
  ].join('\n\n');
}

/** What failed, by kind: the reads' non-2xx answers and errors (autocannon's), the orders' statuses. */
function failures(reads: ScaleRow['reads'], orders: ScaleRow['orders']): string {
  const non2xx = reads.reduce((sum, { result }) => sum + result.non2xx, 0);
  const errors = reads.reduce((sum, { result }) => sum + result.errors, 0);
  const refused = orders.refusals.map(([status, count]) => `${status} × ${count}`).join(', ') || 'none';
  return `reads ${non2xx} / ${errors}; orders ${refused}`;
}

export function scaleSection(rows: ScaleRow[], seconds: number): string {
  const cores = cpus().length;
  const lines = [
    '## Scale: 1, 2 and 3 processes behind nginx',
    '',
    `Measured on ${machine()}. \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- scale\` (not in the default run). For each count, that many server processes (built and started as \`npm start\` does, \`startCluster\` of deploy/cluster.ts) on a fresh PostgreSQL database behind Debian's nginx, without nginx's per-client request rates (all the load comes from one address); the servers' sign-in and buyer limits lifted as for the orders bench. Reads: autocannon, 50 connections, a browser's \`Accept-Encoding\`, ${seconds} s each after a ${WARM_UP_SECONDS} s warm-up. Orders: ${BUYERS} buyers, each order one unit of a variant picked at random from the shop's ${rows[0]!.variants} (stock set to ${PLENTY}), so that buyers seldom wait for each other, for ${seconds} s after a ${WARM_UP_SECONDS} s warm-up. The bare Fastify route (bench/reference-server.ts), directly, is measured before each count's reads: it shows how the machine drifted through the run.`,
    '',
    `| processes | ${READS.map(([read]) => `${read} req/s (p99 ms)`).join(' | ')} | bare route req/s | orders/s | orders p50 / p99 ms | failed: reads (non-2xx / errors), orders (status × count) |`,
    `|---|${READS.map(() => '---|').join('')}---|---|---|---|`,
    ...rows.map(
      ({ processes, reads, reference, orders }) =>
        `| ${processes} | ${reads.map(({ result }) => `${result.requestsPerSecond} (${result.p99})`).join(' | ')} | ${reference.requestsPerSecond} | ${orders.perSecond} | ${orders.p50} / ${orders.p99} | ${failures(reads, orders)} |`,
    ),
    '',
    `CPU over the measured seconds (the reads' three together), as a share of one core: the machine has ${cores}, so ${cores * 100}% is all of it. "bench" is the load generator (autocannon, the buyers' requests), "rest" whatever else ran on the machine meanwhile.`,
    '',
    '| processes | phase | servers | nginx | PostgreSQL | bench | rest | machine | CPU per request: servers / nginx / PostgreSQL |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.flatMap((row) => [
      cpuRow(row.processes, 'reads', row.readsCpu, row.readRequests),
      cpuRow(row.processes, 'orders', row.ordersCpu, row.orders.requests),
    ]),
    '',
    explanation(rows, cores),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL (a PostgreSQL server) is required');
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  benchScale(adminUrl, seconds).then((rows) => console.log(scaleSection(rows, seconds)));
}
