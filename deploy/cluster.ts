/**
 * N shop server processes on one PostgreSQL database behind Debian's nginx, all on this machine:
 * what `npm run cluster -- 3` runs for trying it, and what tests start to exercise the shop
 * behind a real balancer. nginx runs in the foreground from a work directory of its own (its
 * configuration, pid file, logs and temp files), never as the system's service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, spawnServer, type ServerProcess } from './server-process';

export const NGINX_SITE_TEMPLATE = path.join(__dirname, 'nginx', 'myagkiy-opt.conf.template');

/** Debian's nginx, or NGINX_BINARY. */
export const NGINX_BINARY = process.env.NGINX_BINARY || '/usr/sbin/nginx';

/** Where Debian's libnginx-mod-http-brotli-static puts its module; without it only .gz copies are served. */
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

const MIME_TYPES = '/etc/nginx/mime.types';

/** The `server` parameters of every process in the upstream (the template explains them). */
const UPSTREAM_SERVER_PARAMETERS = 'max_fails=2 fail_timeout=10s';

export interface NginxSiteOptions {
  /** The server processes, `host:port` each. */
  upstreams: string[];
  /** Of `upstreams`, those nginx is to send nothing new (`down`): a process about to be restarted. */
  down?: string[];
  /** What nginx listens on: `80`, `127.0.0.1:8080`, `443 ssl`… */
  listen: string;
  /** The built storefront (dist/) on the balancer's machine, absolute. */
  storefrontDir: string;
  /** `brotli_static on;`: only with the brotli static module loaded. */
  brotliStatic: boolean;
  /**
   * Benchmarks only: the site without its per-client request rates (every `limit_req`), so that a
   * load generator, thousands of requests a second from one address, measures the shop and not
   * nginx's 429s. The connection limit and everything else stay as in production.
   */
  withoutRequestRateLimits?: boolean;
  /**
   * The site's access log, `path format` (the format one the site or the http {} context defines);
   * by default Debian's log folder in the site's own format, which masks what opens something.
   */
  accessLog?: string;
}

const DEFAULT_ACCESS_LOG = '/var/log/nginx/myagkiy-opt.access.log myagkiy_opt';

/** A use of a per-client request rate in the site (the zones it names stay defined, unused). */
const REQUEST_RATE_LIMIT = /^[ \t]*limit_req zone=.*\n/gm;

/** deploy/nginx/myagkiy-opt.conf.template filled in: the site, for nginx's http {} context. */
export function renderNginxSite(options: NginxSiteOptions): string {
  if (options.upstreams.length === 0) throw new Error('At least one server process (host:port) is needed');
  const bad = options.upstreams.find((address) => !/^[\w.:[\]-]+:\d+$/.test(address));
  if (bad !== undefined) throw new Error(`A server process is host:port, got "${bad}"`);
  if (!path.isAbsolute(options.storefrontDir) || /["\\$;{}\s]/.test(options.storefrontDir)) {
    throw new Error(
      `The storefront's folder must be an absolute path without spaces or quotes: ${options.storefrontDir}`,
    );
  }
  const values: Record<string, string> = {
    UPSTREAM_SERVERS: options.upstreams
      .map((address) => {
        const down = options.down?.includes(address) ? ' down' : '';
        return `    server ${address} ${UPSTREAM_SERVER_PARAMETERS}${down};`;
      })
      .join('\n'),
    LISTEN: options.listen,
    STOREFRONT_DIR: options.storefrontDir,
    ACCESS_LOG: options.accessLog ?? DEFAULT_ACCESS_LOG,
    BROTLI_STATIC: options.brotliStatic
      ? '        brotli_static on;'
      : '        # brotli_static on;  (needs libnginx-mod-http-brotli-static)',
  };
  const site = readFileSync(NGINX_SITE_TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Unknown placeholder ${placeholder} in ${NGINX_SITE_TEMPLATE}`);
    return value;
  });
  if (!options.withoutRequestRateLimits) return site;
  const unlimited = site.replace(REQUEST_RATE_LIMIT, '');
  // A template whose limits are written differently would otherwise throttle a benchmark unnoticed.
  if (unlimited === site) throw new Error(`No limit_req line to leave out in ${NGINX_SITE_TEMPLATE}`);
  return unlimited;
}

/**
 * nginx's main configuration for a cluster on this machine: in the foreground, everything it
 * writes kept in `workDir`, the access log saying which process answered (`upstream=`, `-` for a
 * file nginx served itself), and the site.
 */
function renderNginxMain(workDir: string, sitePath: string, brotliStaticModule: string | null): string {
  const inWorkDir = (name: string) => path.join(workDir, name);
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${inWorkDir('nginx.pid')};`,
    'error_log stderr warn;',
    ...(brotliStaticModule ? [`load_module ${brotliStaticModule};`] : []),
    'events { worker_connections 1024; }',
    'http {',
    `    include ${MIME_TYPES};`,
    '    default_type application/octet-stream;',
    '    sendfile on;',
    // The request masked as the site's own format masks it (its map is the site's); the site's
    // server writes it to access.log (startCluster).
    `    log_format cluster '$remote_addr "$request_method $myagkiy_opt_logged_path$myagkiy_opt_logged_query $server_protocol" $status upstream=$upstream_addr';`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `    ${kind}_temp_path ${inWorkDir(`${kind}_temp`)};`,
    ),
    `    include ${sitePath};`,
    '}',
    '',
  ].join('\n');
}

/** A port nobody listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface NginxProcess {
  pid: number;
  /** Everything it printed (its warnings and errors). */
  output(): string;
  /** Its access log so far: one line per request, `… upstream=127.0.0.1:3001` or `upstream=-`. */
  accessLog(): string;
  /**
   * Reads its configuration again (SIGHUP) and resolves once the workers that ran the old one have
   * exited: from then on every request is handled by the new one.
   */
  reload(timeoutMs?: number): Promise<void>;
  /** Graceful stop (SIGQUIT: requests in flight finish), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** The processes `pid` has started and not yet reaped (Linux: /proc): nginx's workers, for one. */
export function childrenOf(pid: number): number[] {
  const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return listed ? listed.split(' ').map(Number) : [];
}

async function startNginx(
  workDir: string,
  configPath: string,
  port: number,
  onOutput?: (text: string) => void,
): Promise<NginxProcess> {
  if (!existsSync(NGINX_BINARY)) {
    throw new Error(`nginx is not at ${NGINX_BINARY}: apt-get install nginx (or set NGINX_BINARY)`);
  }
  // Its own process group: Ctrl-C in a terminal reaches the cluster script, which stops nginx last-in-first-out.
  const child: ChildProcess = spawn(NGINX_BINARY, ['-p', workDir, '-e', 'stderr', '-c', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput?.(chunk.toString());
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + 10_000;
  while (!(await accepting(port))) {
    if (gone) throw new Error(`nginx stopped at start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not listen on ${port} within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const accessLogPath = path.join(workDir, 'access.log');
  return {
    pid: child.pid!,
    output: () => output,
    accessLog: () => (existsSync(accessLogPath) ? readFileSync(accessLogPath, 'utf8') : ''),
    async reload(timeoutMs = 15_000) {
      if (gone) throw new Error(`nginx has stopped:\n${output}`);
      const oldWorkers = childrenOf(child.pid!);
      child.kill('SIGHUP');
      const deadline = Date.now() + timeoutMs;
      // The old workers finish the requests they have in flight, then exit; a configuration nginx
      // refuses leaves them running (and says why).
      for (;;) {
        const workers = childrenOf(child.pid!);
        if (workers.length > 0 && !workers.some((pid) => oldWorkers.includes(pid))) return;
        if (Date.now() > deadline) throw new Error(`nginx did not reload within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop(graceMs = 15_000) {
      if (gone) return;
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface ClusterOptions {
  /** How many server processes. */
  processes: number;
  /** The one PostgreSQL database they share (it must exist). */
  databaseUrl: string;
  /** nginx's port on 127.0.0.1; 0 takes a free one. */
  port: number;
  /** The processes listen on firstServerPort, firstServerPort + 1, …; 0 takes free ones. */
  firstServerPort: number;
  /**
   * The processes serve their metrics on firstMetricsPort, firstMetricsPort + 1, … (METRICS_PORT,
   * each its own: one port cannot serve several processes); unset, none does.
   */
  firstMetricsPort?: number;
  /** The built storefront, for nginx and the servers alike; default dist/. */
  storefrontDir?: string;
  /** More environment for every server process (it inherits this process's, then the cluster's own). */
  env?: Record<string, string>;
  /** The brotli static module to load; default BROTLI_STATIC_MODULE when installed, else none. */
  brotliStaticModule?: string | null;
  /** Benchmarks only: nginx without its per-client request rates (NginxSiteOptions). */
  withoutRequestRateLimits?: boolean;
  /** Receives what each process prints: `source` is `server 1`… or `nginx`. */
  onOutput?: (source: string, text: string) => void;
  startupTimeoutMs?: number;
}

export interface Cluster {
  /** nginx: where a browser goes. */
  url: string;
  port: number;
  /** The server processes, one per slot; restartServer replaces a slot's entry. */
  servers: ServerProcess[];
  /** Each slot's port, the same across restarts. */
  serverPorts: number[];
  /** Each slot's METRICS_PORT; empty without firstMetricsPort. */
  metricsPorts: number[];
  nginx: NginxProcess;
  /** nginx's configuration, pid, logs and temp files; removed by stop(). */
  workDir: string;
  /**
   * Stops slot `index`'s process gracefully (SIGTERM) and starts a new one on its port: a rolling
   * restart's step. With `outOfRotation`, nginx is first told to send it nothing new (`down`, a
   * graceful reload) and given it back once the new one listens: then no request can reach the
   * process as it closes its listener, where a POST nginx had just sent would be lost.
   */
  restartServer(index: number, options?: { outOfRotation?: boolean }): Promise<ServerProcess>;
  /** nginx first (no new requests), then every process, gracefully; removes workDir. Never throws. */
  stop(): Promise<void>;
}

/**
 * Starts `processes` servers from build/ (built beforehand: scripts/build-server.js) on one
 * database, then nginx in front of them; resolves once every process and nginx listen.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const storefrontDir = path.resolve(PROJECT_ROOT, options.storefrontDir ?? 'dist');
  const brotliStaticModule =
    options.brotliStaticModule !== undefined
      ? options.brotliStaticModule
      : existsSync(BROTLI_STATIC_MODULE)
        ? BROTLI_STATIC_MODULE
        : null;
  const serverPorts: number[] = [];
  for (let index = 0; index < options.processes; index += 1) {
    serverPorts.push(options.firstServerPort === 0 ? await freePort() : options.firstServerPort + index);
  }
  const { firstMetricsPort } = options;
  const metricsPorts = firstMetricsPort === undefined ? [] : serverPorts.map((_, index) => firstMetricsPort + index);
  const port = options.port === 0 ? await freePort() : options.port;

  const workDir = mkdtempSync(path.join(tmpdir(), 'myagkiy-opt-cluster-'));
  // nginx's workers run as nobody when it is started as root; they must reach their temp folders.
  chmodSync(workDir, 0o755);
  const sitePath = path.join(workDir, 'myagkiy-opt.conf');
  const configPath = path.join(workDir, 'nginx.conf');
  const upstreams = serverPorts.map((serverPort) => `127.0.0.1:${serverPort}`);
  const writeSite = (down: string[]) =>
    writeFileSync(
      sitePath,
      renderNginxSite({
        upstreams,
        down,
        listen: `127.0.0.1:${port}`,
        storefrontDir,
        brotliStatic: brotliStaticModule !== null,
        withoutRequestRateLimits: options.withoutRequestRateLimits,
        accessLog: `${path.join(workDir, 'access.log')} cluster`,
      }),
    );
  writeSite([]);
  writeFileSync(configPath, renderNginxMain(workDir, sitePath, brotliStaticModule));

  const startServer = (index: number) =>
    spawnServer({
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        NODE_ENV: 'production',
        // Required in production: the operator's, or nginx's own address as a browser here reaches it.
        PUBLIC_URL: process.env.PUBLIC_URL || `http://127.0.0.1:${port}`,
        HOST: '127.0.0.1',
        PORT: String(serverPorts[index]),
        DATABASE_URL: options.databaseUrl,
        // nginx reaches the processes from 127.0.0.1: its X-Forwarded-* are believed, nobody else's.
        TRUST_PROXY: '127.0.0.1',
        STOREFRONT_DIR: storefrontDir,
        // Never one METRICS_PORT inherited by all: every process but the first would fail to start.
        METRICS_PORT: String(metricsPorts[index] ?? ''),
        ...options.env,
      },
      startupTimeoutMs: options.startupTimeoutMs,
      onOutput: options.onOutput && ((text) => options.onOutput!(`server ${index + 1}`, text)),
    });

  const servers: ServerProcess[] = [];
  let nginx: NginxProcess | undefined;
  const stop = async () => {
    await nginx?.stop().catch(() => {});
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    // Together: migrations and the demo seed happen once, under the database's start-up lock.
    const started = await Promise.allSettled(serverPorts.map((_, index) => startServer(index)));
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    nginx = await startNginx(
      workDir,
      configPath,
      port,
      options.onOutput && ((text) => options.onOutput!('nginx', text)),
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    servers,
    serverPorts,
    metricsPorts,
    nginx,
    workDir,
    async restartServer(index, { outOfRotation = false } = {}) {
      const old = servers[index];
      if (!old) throw new Error(`No server process ${index}: the cluster has ${servers.length}`);
      if (outOfRotation) {
        writeSite([upstreams[index]!]);
        await nginx!.reload();
      }
      await old.stop();
      servers[index] = await startServer(index);
      if (outOfRotation) {
        writeSite([]);
        await nginx!.reload();
      }
      return servers[index];
    },
    stop,
  };
}
