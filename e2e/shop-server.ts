import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PASSWORD } from './fixtures';

export interface RunningShop {
  url: string;
  /** The shop's DATA_DIR: its database and, with no SMTP_URL, its letters as .eml files in mail/. */
  dataDir: string;
  stop(): Promise<void>;
}

const root = path.resolve(__dirname, '..');

/**
 * Starts the real server on a free port with a fresh database, as `npm start` would minus the
 * builds: `npm run test:e2e` has just built the storefront and the server.
 */
export async function startShop(env: Record<string, string> = {}): Promise<RunningShop> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'myagkiy-opt-e2e-'));
  const child: ChildProcess = spawn('sh', ['scripts/start-server.sh'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // Every journey signs up and in from 127.0.0.1: the per-client limit (50 a window) is a
      // shop's, not a test suite's. The per-account limit stays as it is.
      LOGIN_LIMIT_PER_CLIENT: '10000',
      // The journeys order right after signing up, and several buyers who never paid order the
      // same variants: the confirmation and the unproven buyers' pool have server and client tests
      // of their own (test/server/security/unproven-buyers.test.ts, features/session).
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      UNPROVEN_STOCK_SHARE_PERCENT: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes a manager as the README tells a shop's owner to: `npm run users -- grant-manager <email>`.
 * The embedded database belongs to one process: the shop on `dataDir` must be stopped first.
 */
export function grantManager(dataDir: string, email: string): void {
  execFileSync('npm', ['run', '--silent', 'users', '--', 'grant-manager', email], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'pipe',
  });
}

/**
 * A shop of its own with a manager: registered with the accounts `alsoRegister`, then granted the
 * role from the command line between two starts (the embedded database belongs to one process).
 * Stop the shop and remove `dataDir` after.
 */
export async function startShopWithManager(
  managerEmail: string,
  alsoRegister: string[] = [],
): Promise<{ shop: RunningShop; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'myagkiy-opt-e2e-manager-'));
  const first = await startShop({ DATA_DIR: dataDir });
  for (const email of [managerEmail, ...alsoRegister]) {
    const response = await fetch(`${first.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, consent: true }),
    });
    if (response.status !== 201) throw new Error(`could not register ${email}: ${await response.text()}`);
  }
  await first.stop();
  grantManager(dataDir, managerEmail);
  return { shop: await startShop({ DATA_DIR: dataDir }), dataDir };
}
