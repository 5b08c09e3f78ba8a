/**
 * `npm run cluster -- 3`: three server processes on the local PostgreSQL behind nginx, for trying
 * the shop as it runs behind a balancer (deploy/cluster.ts). Ctrl-C or SIGTERM stops nginx, then
 * every process gracefully. README, «Several processes behind nginx».
 */
import { Client } from 'pg';
import { startCluster } from '../deploy/cluster';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/myagkiy_opt';

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  return value;
}

/** Creates the database of `url` on its server unless it is there already. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url}`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`);
      console.log(`Created the database ${name}.`);
    }
  } finally {
    await client.end();
  }
}

/** Prints what a process printed, each line marked with where it came from. */
function printer(): (source: string, text: string) => void {
  const partial = new Map<string, string>();
  return (source, text) => {
    const lines = ((partial.get(source) ?? '') + text).split('\n');
    partial.set(source, lines.pop()!);
    for (const line of lines) process.stdout.write(`[${source}] ${line}\n`);
  };
}

async function main(): Promise<void> {
  const processes = wholeNumber('The number of processes', process.argv[2], 3, 1);
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await ensureDatabase(databaseUrl);

  const started = startCluster({
    processes,
    databaseUrl,
    port: wholeNumber('CLUSTER_PORT', process.env.CLUSTER_PORT, 8080, 1),
    firstServerPort: wholeNumber('CLUSTER_FIRST_SERVER_PORT', process.env.CLUSTER_FIRST_SERVER_PORT, 3001, 1),
    firstMetricsPort: process.env.CLUSTER_FIRST_METRICS_PORT
      ? wholeNumber('CLUSTER_FIRST_METRICS_PORT', process.env.CLUSTER_FIRST_METRICS_PORT, 0, 1)
      : undefined,
    // As `npm start` reads it (scripts/build-if-missing.js has checked it has a build).
    storefrontDir: process.env.STOREFRONT_DIR || undefined,
    onOutput: printer(),
  });
  let stopping = false;
  // A signal while it is still starting stops it as soon as it has started.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping nginx, then every process gracefully...`);
    void started.then((cluster) => cluster.stop()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const cluster = await started;
  if (stopping) return;
  console.log(
    `\nThe shop: ${cluster.url} (nginx) in front of ${cluster.serverPorts.map((port) => `127.0.0.1:${port}`).join(', ')}` +
      ` on ${databaseUrl}.\nnginx's configuration and access log: ${cluster.workDir}. Ctrl-C stops it all.\n` +
      (cluster.metricsPorts.length > 0
        ? `Metrics for Prometheus: ${cluster.metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`).join(', ')}.\n`
        : ''),
  );
  for (const [index, server] of cluster.servers.entries()) {
    void server.exited.then(({ code, signal }) => {
      if (!stopping) console.error(`Server process ${index + 1} exited (${code ?? signal}); the others go on.`);
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
