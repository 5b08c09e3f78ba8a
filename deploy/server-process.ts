/**
 * One shop server process, started as `npm start` starts it (scripts/start-server.sh on the
 * compiled server in build/), in its own process group, with everything it prints kept. The
 * cluster (deploy/cluster.ts) and the reliability suite's harness both run their servers this way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..');

export interface ServerProcess {
  url: string;
  port: number;
  /** The process we spawned: the start script, which execs the server's node. */
  child: ChildProcess;
  /** The node process that runs the server, from its log lines. */
  serverPid: number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) of the spawned process. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  alive(): boolean;
  /** Resolves when a line matching `pattern` has been printed. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** kill -9 of the whole process group: a power cut for the server. */
  kill9(): Promise<void>;
  /** SIGTERM to the server process, then SIGKILL of the group if it has not exited within `graceMs`. Never throws. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  /** The server's whole environment (PORT, HOST=127.0.0.1, DATABASE_URL…). */
  env: NodeJS.ProcessEnv;
  startupTimeoutMs?: number;
  /** Called with every chunk it prints, e.g. to pass it on to a terminal. */
  onOutput?: (chunk: string) => void;
  /** Called when stop() is done with it. */
  onStopped?: () => void;
}

/**
 * Starts the server built in build/ and waits for "Server listening at http://127.0.0.1:…"
 * (HOST must be 127.0.0.1); a server that does not get there is stopped and the error says why.
 */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  // Its own process group, so that kill -9 reaches everything the server started.
  const child = spawn('sh', ['scripts/start-server.sh'], {
    cwd: PROJECT_ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    options.onOutput?.(text);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(output)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );

  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };

  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(output)) return resolve();
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output.slice(-3000)}`));
      }, timeoutMs);
      const waiter = {
        pattern,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      waiters.push(waiter);
      // A process that has exited prints nothing more.
      void exited.then(() => {
        if (!waiters.includes(waiter)) return;
        waiters.splice(waiters.indexOf(waiter), 1);
        clearTimeout(timer);
        reject(new Error(`exited before printing ${pattern}:\n${output.slice(-3000)}`));
      });
    });

  const server: Partial<ServerProcess> = {
    child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    waitForOutput,
    async kill9() {
      killGroup('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        // One SIGTERM, as a supervisor stops the server: close-with-grace takes a second one
        // for "exit now", which is not a graceful shutdown.
        try {
          process.kill((server as ServerProcess).serverPid ?? child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
        const timer = setTimeout(() => killGroup('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Whatever is left of the group (a stuck child).
      killGroup('SIGKILL');
      options.onStopped?.();
    },
  };

  try {
    const listening = /Server listening at (http:\/\/127\.0\.0\.1:(\d+))/;
    await waitForOutput(listening, options.startupTimeoutMs ?? 90_000);
    const match = listening.exec(output)!;
    server.url = match[1]!;
    server.port = Number(match[2]);
    const pid = /"pid":(\d+)/.exec(output);
    server.serverPid = pid ? Number(pid[1]) : child.pid!;
  } catch (error) {
    await (server as ServerProcess).stop(2000);
    throw error;
  }
  return server as ServerProcess;
}
