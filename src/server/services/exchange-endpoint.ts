import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type { ExchangeConfig, RateLimitConfig } from '../config';
import type { Database } from '../db/database';
import {
  ExchangeAddressRefusedError,
  ExchangeRefusedError,
  ExchangeSessionError,
  ExchangeSignInError,
  ExchangeThrottledError,
  ExchangeTooLargeError,
} from '../domain/domain-errors';
import { createExchangeTransportRepository, type ExchangeKind } from '../repositories/exchange-transport';
import { createSignInAttemptsRepository } from '../repositories/sign-in-attempts';
import { appendChunk, pathInFolder, unpackZip } from './exchange-files';
import { verifyAgainstDecoy, verifyPassword } from './passwords';
import { createSignInThrottle } from './sign-in-throttle';

/** The cookie 1С is told to send back on every call after `checkauth`. */
export const EXCHANGE_COOKIE = 'myagkiy_1c';
/** A session unused this long is over: 1С signs in again at its next exchange. */
const SESSION_IDLE_SECONDS = 24 * 60 * 60;
/** How long a request waits for the zips to unpack before answering `progress` (well within nginx's 60 s). */
const UNPACK_BUDGET_MS = 20_000;
/** The unpacking process says it is alive this often; one silent for STALE_SECONDS is taken to be dead. */
const HEARTBEAT_MS = 5_000;
const STALE_SECONDS = 30;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface ExchangeSession {
  id: string;
  userId: number;
  runId: string | null;
  runKind: ExchangeKind | null;
}

interface Log {
  warn(object: object, message: string): void;
}

/**
 * The protocol's own state at /1c_exchange, kept where every server process sees it: sessions,
 * runs and received files in the database, the files in EXCHANGE_DIR (shared storage in a cluster).
 */
export function createExchangeEndpoint(
  db: Database,
  config: {
    exchange: ExchangeConfig;
    loginRateLimitPerClient: RateLimitConfig;
    loginRateLimitPerAccount: RateLimitConfig;
  },
  log: Log,
) {
  const settings = config.exchange;
  const transport = createExchangeTransportRepository(db);
  const throttle = createSignInThrottle(createSignInAttemptsRepository(db), config);
  const allowed = settings.allowedIps.map((entry) =>
    entry.includes('/')
      ? ipaddr.parseCIDR(entry)
      : ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`),
  );
  const folderOf = (runId: string) => path.join(settings.dir, runId);
  /** Unpackings this process runs, by run: a second `import` while one runs waits on it, not anew. */
  const unpacking = new Map<string, Promise<'busy' | 'done'>>();

  async function unpackRun(runId: string, zips: string[]): Promise<void> {
    const beat = setInterval(
      () =>
        void transport
          .zipsHeartbeat(runId, zips)
          .catch((error: unknown) => log.warn({ err: error, runId }, 'exchange unpacking heartbeat failed')),
      HEARTBEAT_MS,
    );
    try {
      const left = { bytes: settings.maxUnpackedBytes, entries: settings.maxZipEntries };
      const folder = folderOf(runId);
      const unpacked: { name: string; bytes: number }[] = [];
      for (const zip of zips) unpacked.push(...(await unpackZip(pathInFolder(folder, zip), folder, left)));
      // The files 1С will name in `import` lie at the top; the pictures under import_files/ are read from disk.
      await transport.zipsUnpacked(
        runId,
        zips,
        unpacked.filter((file) => !file.name.includes('/')),
      );
    } catch (error) {
      const reason = error instanceof ExchangeRefusedError ? error.detail : 'Архив обмена не распакован';
      if (!(error instanceof ExchangeRefusedError)) log.warn({ err: error, runId }, 'exchange unpacking failed');
      await transport.zipsFailed(runId, zips, reason);
      await transport.failRun(runId, reason);
      throw error instanceof ExchangeRefusedError ? error : new ExchangeRefusedError(reason);
    } finally {
      clearInterval(beat);
    }
  }

  return {
    folderOf,

    /** Every call: an address outside EXCHANGE_ALLOWED_IPS (when set) is refused. */
    checkAddress(ip: string): void {
      if (allowed.length === 0) return;
      const address = ipaddr.isValid(ip) ? ipaddr.process(ip) : null;
      const admitted =
        address && allowed.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));
      if (!admitted) throw new ExchangeAddressRefusedError();
    },

    /**
     * `checkauth`: the Basic credentials of an account with the exchange access → a new session's
     * cookie. Attempts are throttled per client address only: 1С has no device cookie, and a
     * stranger's guesses must not lock the exchange's account out.
     */
    async signIn(ip: string, authorization: string | undefined): Promise<{ cookie: string; sessionId: string }> {
      const [scheme, encoded] = (authorization ?? '').trim().split(/\s+/, 2);
      if (scheme?.toLowerCase() !== 'basic' || !encoded) throw new ExchangeSignInError();
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new ExchangeSignInError();
      const email = decoded.slice(0, colon).trim().toLowerCase();
      const password = decoded.slice(colon + 1);
      const wait = await throttle.admit(ip, null);
      if (wait !== null) throw new ExchangeThrottledError(wait);
      const user = await transport.credentials(email);
      const valid = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password);
      if (!user || !valid || !user.exchangeAccess) throw new ExchangeSignInError();
      const cookie = randomBytes(32).toString('base64url');
      const sessionId = await transport.startSession(sha256(cookie), user.id, ip);
      return { cookie, sessionId };
    },

    /** The session the request's Cookie header names; refused without one. */
    async session(cookieHeader: string | undefined): Promise<ExchangeSession> {
      const cookie = (cookieHeader ?? '')
        .split(';')
        .map((pair) => pair.trim().split('='))
        .find(([name]) => name === EXCHANGE_COOKIE)?.[1];
      const session = cookie ? await transport.touchSession(sha256(cookie), SESSION_IDLE_SECONDS) : null;
      if (!session)
        throw new ExchangeSessionError('Сессия обмена не найдена или истекла: нужна авторизация (checkauth)');
      return session;
    },

    /** `init`: a new run with a new, empty folder, which the session goes on with. */
    async init(session: ExchangeSession, kind: ExchangeKind): Promise<string> {
      const runId = await transport.startRun(session.id, kind, session.userId);
      await mkdir(folderOf(runId), { recursive: true });
      return runId;
    },

    /** The run the session's `init` began for this kind of exchange; refused before `init`. */
    runOf(session: ExchangeSession, kind: ExchangeKind): string {
      if (session.runId === null || session.runKind !== kind) {
        throw new ExchangeSessionError('Обмен не начат: сначала нужен запрос init');
      }
      return session.runId;
    },

    /** The path of a file of the run, its name checked. */
    pathOf: (runId: string, name: string) => pathInFolder(folderOf(runId), name),

    /**
     * `file`: the body appended to the run's file, within EXCHANGE_FILE_LIMIT per request and
     * EXCHANGE_MAX_RUN_BYTES per run; its row says how many bytes it has so far.
     */
    async receive(runId: string, name: string, body: Readable): Promise<string> {
      const file = pathInFolder(folderOf(runId), name);
      const runLeft = settings.maxRunBytes - (await transport.runBytes(runId));
      const limit = Math.min(settings.fileLimitBytes, runLeft);
      const tooLarge = () =>
        new ExchangeTooLargeError(
          limit === settings.fileLimitBytes
            ? `Часть файла больше ${settings.fileLimitBytes} байт (file_limit)`
            : `Файлы обмена больше ${settings.maxRunBytes} байт в сумме`,
        );
      const bytes = await appendChunk(file, body, Math.max(0, limit), tooLarge);
      await transport.fileReceived(runId, name, bytes);
      return file;
    },

    /**
     * Before the first `import` of a catalogue run: its zips unpacked into its folder, under an
     * advisory lock (one process unpacks; a dead one's work is taken over after its heartbeat stops).
     * 'progress' while that takes longer than a request should wait: it goes on in this process.
     */
    async unpack(runId: string): Promise<'done' | 'progress'> {
      const running = unpacking.get(runId);
      const work =
        running ??
        (async () => {
          const claim = await transport.claimZips(runId, STALE_SECONDS);
          if (claim.failed !== null) throw new ExchangeRefusedError(claim.failed);
          if (claim.busy) return 'busy' as const;
          if (claim.claimed.length > 0) await unpackRun(runId, claim.claimed);
          return 'done' as const;
        })();
      if (!running) {
        const tracked = work.finally(() => unpacking.delete(runId));
        // A failure is answered to the request that waits on it, or to the next `import`, from the rows.
        tracked.catch(() => {});
        unpacking.set(runId, tracked);
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'progress'>((resolve) => {
        timer = setTimeout(() => resolve('progress'), UNPACK_BUDGET_MS);
      });
      try {
        const outcome = await Promise.race([work, timeout]);
        return outcome === 'done' ? 'done' : 'progress';
      } finally {
        clearTimeout(timer);
      }
    },

    /** The background job: sessions long unused deleted, and the files of runs older than EXCHANGE_FILES_KEEP_DAYS. */
    async sweep(): Promise<void> {
      await transport.purgeSessions(SESSION_IDLE_SECONDS);
      for (const runId of await transport.runsToClear(settings.filesKeepDays)) {
        await rm(folderOf(runId), { recursive: true, force: true });
        await transport.filesRemoved(runId);
      }
    },
  };
}

export type ExchangeEndpoint = ReturnType<typeof createExchangeEndpoint>;
