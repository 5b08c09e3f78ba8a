/**
 * The embedded database (PGlite) in a thread of its own; src/server/db/database.ts talks to it.
 *
 * Why a thread: PGlite is PostgreSQL compiled to WebAssembly and runs a statement on the thread that
 * calls it, so on the server's thread every uncached search (10–20 ms on a large catalogue) or order
 * held up every other request, cached reads included. And V8 runs Node's own JavaScript more slowly
 * in an isolate that has run PGlite: `process.nextTick` cost 110–137 ns there against 58–78 ns in a
 * thread beside it (docs/performance.md), which is most of why the same cached read cost the server
 * more CPU on the embedded database than on PostgreSQL.
 *
 * An ES module (.mts) so that Node runs it from the sources as it is (tests, `npm run dev:server`)
 * and esbuild compiles it beside the server for `npm start` (scripts/build-server.js). It imports
 * nothing of the shop's: everything it needs comes in its `workerData` and its messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  PGlite,
  types,
  type Extensions,
  type ParserOptions,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

export interface EmbeddedDatabaseSettings {
  /** PGlite's directory; null keeps the database in memory. */
  clusterDir: string | null;
  startParams: string[];
  /** Contrib modules to load, by name (`@electric-sql/pglite/contrib/<name>` exports `<name>`). */
  extensions: string[];
  /** Type OIDs whose values the database gives as PostgreSQL's text unless a statement asks otherwise. */
  keepText: number[];
}

/** A statement's options as they cross the threads: parsers are functions, so only which types keep their text. */
export interface StatementOptions {
  rowMode: 'array' | 'object';
  /** Type OIDs whose values stay as PostgreSQL's text (drizzle keeps dates and times so). */
  keepText: number[];
}

export type Request =
  | { kind: 'query'; sql: string; params: unknown[]; options: StatementOptions; transaction: number | null }
  | { kind: 'exec'; sql: string }
  /**
   * Opens a transaction, numbered by the server's thread, once the connection is free. Its
   * statements may be sent before the answer: they wait for it to open.
   */
  | { kind: 'begin'; transaction: number }
  | { kind: 'end'; transaction: number; commit: boolean }
  | { kind: 'listen'; channel: string; listener: number }
  | { kind: 'unlisten'; listener: number }
  | { kind: 'close' };

/** What a failed statement threw: PostgreSQL's fields (code, constraint, detail…) as they were. */
export interface ThrownError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type Message =
  | { ready: true }
  | { startFailed: ThrownError }
  | { id: number; result: unknown }
  | { id: number; error: ThrownError }
  | { notification: { listener: number; payload: string } };

const settings = workerData as EmbeddedDatabaseSettings;
const port = parentPort!;

/** The value a rolled-back transaction's work rejects with, so that PGlite rolls it back. */
const ROLLED_BACK = Symbol('rolled back');

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  done: Promise<void>;
}

function thrown(error: unknown): ThrownError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // PostgreSQL's fields are strings and numbers; anything else (a nested object) is left out.
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

const asText = (value: string) => value;
const keptAsText = (oids: number[]): ParserOptions => Object.fromEntries(oids.map((oid) => [oid, asText]));

const keptByDefault = new Set(settings.keepText);

/**
 * PGlite merges a statement's own `parsers` with all of its defaults on every statement (about
 * 0.1 ms, as long as `select 1` takes), so the types drizzle keeps as text are kept so by the
 * database itself (`settings.keepText`), and a statement names its parsers only when it wants
 * another set: its own types as text, and PGlite's parser back for the others.
 */
function queryOptions({ rowMode, keepText }: StatementOptions): QueryOptions {
  const wanted = new Set(keepText);
  if (wanted.size === keptByDefault.size && keepText.every((oid) => keptByDefault.has(oid))) return { rowMode };
  const parsedAgain = [...keptByDefault].filter((oid) => !wanted.has(oid) && types.parsers[oid]);
  return {
    rowMode,
    parsers: { ...keptAsText(keepText), ...Object.fromEntries(parsedAgain.map((oid) => [oid, types.parsers[oid]!])) },
  };
}

async function loadExtensions(names: string[]): Promise<Extensions> {
  const entries = await Promise.all(
    names.map(async (name) => {
      const module = (await import(`@electric-sql/pglite/contrib/${name}`)) as Record<string, Extensions[string]>;
      return [name, module[name]!] as const;
    }),
  );
  return Object.fromEntries(entries);
}

async function serve(): Promise<void> {
  const options = {
    startParams: settings.startParams,
    extensions: await loadExtensions(settings.extensions),
    parsers: keptAsText(settings.keepText),
  };
  const database = settings.clusterDir ? new PGlite(settings.clusterDir, options) : new PGlite(options);
  await database.waitReady;

  /**
   * Transactions by the number the server's thread gave them, from the moment `begin` arrives: its
   * first statements may already be on their way, and wait here until it is open.
   */
  const transactions = new Map<number, Promise<OpenTransaction>>();
  const listeners = new Map<number, () => Promise<void>>();

  async function begin(): Promise<OpenTransaction> {
    let opened!: (tx: Transaction) => void;
    const txOpened = new Promise<Transaction>((resolve) => (opened = resolve));
    let end!: (commit: boolean) => void;
    // PGlite runs the work once the connection is free and BEGIN has run; it commits when the work
    // resolves and rolls back when it rejects, which the `end` request decides.
    const done = database.transaction(
      (tx) =>
        new Promise<void>((commit, rollBack) => {
          end = (shouldCommit) => (shouldCommit ? commit() : rollBack(ROLLED_BACK));
          opened(tx);
        }),
    );
    const tx = await Promise.race([
      txOpened,
      done.then(() => {
        throw new Error('The transaction ended before it began');
      }),
    ]);
    return { tx, end, done };
  }

  async function opened(number: number): Promise<OpenTransaction> {
    const opening = transactions.get(number);
    if (!opening) throw new Error(`No open transaction ${number}`);
    return opening;
  }

  async function end(number: number, commit: boolean): Promise<void> {
    const opening = opened(number);
    // Gone from the map whatever comes of it: a transaction whose BEGIN failed is over too.
    transactions.delete(number);
    const open = await opening;
    open.end(commit);
    try {
      await open.done;
    } catch (error) {
      if (error !== ROLLED_BACK) throw error;
    }
  }

  async function run(request: Request): Promise<unknown> {
    switch (request.kind) {
      case 'query': {
        const target = request.transaction === null ? database : (await opened(request.transaction)).tx;
        const { rows, fields, affectedRows }: Results = await target.query(
          request.sql,
          request.params,
          queryOptions(request.options),
        );
        return { rows, fields, affectedRows };
      }
      case 'exec':
        await database.exec(request.sql);
        return null;
      case 'begin': {
        // Known at once, before anything is awaited: the transaction's statements come next.
        const opening = begin();
        transactions.set(request.transaction, opening);
        await opening;
        return null;
      }
      case 'end':
        return end(request.transaction, request.commit);
      case 'listen': {
        const { listener } = request;
        const unsubscribe = await database.listen(request.channel, (payload) =>
          port.postMessage({ notification: { listener, payload } } satisfies Message),
        );
        listeners.set(listener, unsubscribe);
        return null;
      }
      case 'unlisten':
        await listeners.get(request.listener)?.();
        listeners.delete(request.listener);
        return null;
      case 'close':
        // The server's thread ends this one once the answer is in.
        await database.close();
        return null;
    }
  }

  port.on('message', ({ id, request }: { id: number; request: Request }) => {
    run(request).then(
      (result) => port.postMessage({ id, result } satisfies Message),
      (error: unknown) => port.postMessage({ id, error: thrown(error) } satisfies Message),
    );
  });
  port.postMessage({ ready: true } satisfies Message);
}

serve().catch((error: unknown) => {
  port.postMessage({ startFailed: thrown(error) } satisfies Message);
});
