import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const root = path.resolve(__dirname, '..');

export interface Process {
  url: string;
  pid: number;
  /** Its log's warnings and errors, then the last 20 000 characters it wrote: what a failed bench shows. */
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const SHOP_SERVER = 'src/server/server.ts';

/** Compiles the shop's server to build/ (scripts/build-server.js), which `npm start` runs. */
export function buildServer(): void {
  execFileSync(process.execPath, ['scripts/build-server.js'], { cwd: root, stdio: 'inherit' });
}

/**
 * Starts a TypeScript entry point with tsx on a free port and waits until it answers. The shop's
 * server is compiled and started as `npm start` does (scripts/start-server.sh, with its runtime flags).
 */
export async function startProcess(
  entry: string,
  env: Record<string, string | undefined> = {},
  readyPath = '/',
): Promise<Process> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (entry === SHOP_SERVER) buildServer();
  // Never the tsx or npm wrappers: the pid must be the server's own (memory is measured on it);
  // the start script execs node.
  const [command, ...args] =
    entry === SHOP_SERVER
      ? ['sh', 'scripts/start-server.sh']
      : [path.join(root, 'node_modules/.bin/node'), '--import', 'tsx', entry];
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Warnings and errors kept apart: a busy bench's request lines would push them out of the tail.
  let problems = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    for (const line of text.split('\n')) {
      if (/"level":[456]0/.test(line)) problems = `${problems}${line}\n`.slice(-20_000);
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${entry} did not start:\n${output}`);
    const answered = await fetch(`${url}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    output: () => `${problems}${output}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * autocannon keeps each answer's body by appending it to a string (`body += chunk`), which decodes
 * it as UTF-8: for a compressed body (bytes that look random) that is slow, and on this 2-core
 * machine the load generator shares the cores with the server it measures. A bare Node server
 * answering 2 074 random bytes got 47 000–51 000 req/s with it and 78 000–81 000 without (its
 * CPU per request 14–15.5 µs and 12 µs); as many ASCII bytes, kept, 68 000–71 000. No
 * bench reads the bodies (only their byte counts, which autocannon keeps apart), so none is kept.
 */
function discardBodies(client: autocannon.Client): void {
  const queue = (client as unknown as { pipelinedRequests?: { addBody?: unknown } }).pipelinedRequests;
  // autocannon's internals: should they change, fail rather than measure the client's decoding again.
  if (typeof queue?.addBody !== 'function')
    throw new Error("autocannon's client no longer keeps bodies where expected");
  queue.addBody = () => {};
}

export async function load(
  url: string,
  options: { connections?: number; seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 10,
    headers: options.headers,
    setupClient: discardBodies,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Runs of equal length as one: their mean rate, the median p50, the worst p99, every failure. */
export function combinedLoad(runs: LoadResult[]): LoadResult {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const sum = (value: (run: LoadResult) => number) => runs.reduce((total, run) => total + value(run), 0);
  return {
    requestsPerSecond: Math.round(sum((run) => run.requestsPerSecond) / runs.length),
    p50: median(runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
  };
}

/**
 * `load` asks for one URL; this asks for the next of `nextPath()` with every request, for `seconds`.
 */
export async function loadPaths(
  origin: string,
  nextPath: () => string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const result = await autocannon({
    url: origin,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    setupClient: discardBodies,
    requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The value below which `p` percent of `values` fall (nearest rank); 0 for no values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export const tenths = (ms: number): number => Math.round(ms * 10) / 10;

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Resident memory of a process in MB (Linux /proc). */
export async function residentMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** /proc counts CPU time in USER_HZ ticks, 100 a second wherever Linux runs. */
const MS_PER_TICK = 10;

/** CPU time (user + system, all its threads) process `pid` has used so far, in ms; 0 once it has gone (Linux /proc). */
export function cpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // The name (field 2) is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** The machine's busy CPU time so far, all cores together, in ms: /proc/stat's all but idle and I/O wait. */
export function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * MS_PER_TICK;
}

/** CPU time over some interval: of the machine, and of each named group of processes. */
export interface CpuUse {
  wallMs: number;
  machineMs: number;
  groupsMs: Record<string, number>;
}

/**
 * Runs `work` and counts the CPU time each group of `pidsOf()` used meanwhile. The groups are asked
 * for at both ends: a process started meanwhile counts from zero; one that ended meanwhile is lost.
 */
export async function measureCpu<T>(
  pidsOf: () => Promise<Record<string, number[]>>,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuUse }> {
  const read = (groups: Record<string, number[]>) =>
    new Map(Object.values(groups).flatMap((pids) => pids.map((pid) => [pid, cpuMs(pid)] as const)));
  const before = read(await pidsOf());
  const machineBefore = machineBusyMs();
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  const machineMs = machineBusyMs() - machineBefore;
  const groups = await pidsOf();
  const after = read(groups);
  const groupsMs = Object.fromEntries(
    Object.entries(groups).map(([group, pids]) => [
      group,
      // A process gone between the listing and the reading reads 0: it adds nothing.
      pids.reduce((sum, pid) => sum + Math.max(0, after.get(pid)! - (before.get(pid) ?? 0)), 0),
    ]),
  );
  return { result, cpu: { wallMs, machineMs, groupsMs } };
}

/** Two intervals' CPU use together, as one. */
export function addCpu(a: CpuUse, b: CpuUse): CpuUse {
  const groups = new Set([...Object.keys(a.groupsMs), ...Object.keys(b.groupsMs)]);
  return {
    wallMs: a.wallMs + b.wallMs,
    machineMs: a.machineMs + b.machineMs,
    groupsMs: Object.fromEntries([...groups].map((g) => [g, (a.groupsMs[g] ?? 0) + (b.groupsMs[g] ?? 0)])),
  };
}
