import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { setTimeout as delay } from 'node:timers/promises';
import type { CommerceMlFileKind, ThreadAcknowledgement, ThreadMessage, ThreadReading } from './reader-thread';
import { CommerceMlError, type ImportRecord, type OffersRecord, type OrderDocumentRecord } from './records';

/**
 * The readers of commerceml/ run in a thread of their own: parsing an import.xml of hundreds of MB
 * takes minutes of CPU, which on the server's thread would hold every other request. The thread
 * posts its batches one at a time and reads on only when the one before is taken (the caller asked
 * for the next), so a slow consumer (the staging inserts) keeps the thread waiting, not the
 * batches piling up in memory.
 */

/**
 * Node runs the thread's file itself: the compiled one beside this in build/ (`npm start`), or,
 * from the TypeScript sources (the tests, `npm run dev:server`), the .ts one through tsx's loader.
 */
const fromSources = __filename.endsWith('.ts');
const THREAD_FILE = path.join(__dirname, `reader-thread.${fromSources ? 'ts' : 'js'}`);
const THREAD_EXEC_ARGV = fromSources ? ['--require', require.resolve('tsx/cjs')] : undefined;
/** The thread's heap: one chunk, the open elements, one batch and the Классификатор's properties. */
const THREAD_HEAP_MB = 256;
/** How long a thread told to stop is given to close its file and end before it is ended. */
const STOP_WAIT_MS = 2_000;

export function readInThread(kind: 'import', path: string, fileName: string): AsyncIterable<ImportRecord[]>;
export function readInThread(kind: 'offers', path: string, fileName: string): AsyncIterable<OffersRecord[]>;
export function readInThread(kind: 'orders', path: string, fileName: string): AsyncIterable<OrderDocumentRecord[]>;
/** `heapMb`: the thread's heap (a test proves the streaming by a heap far smaller than the file). */
export function readInThread(
  kind: CommerceMlFileKind,
  path: string,
  fileName: string,
  heapMb?: number,
): AsyncIterable<ImportRecord[] | OffersRecord[] | OrderDocumentRecord[]>;
export function readInThread(
  kind: CommerceMlFileKind,
  path: string,
  fileName: string,
  heapMb = THREAD_HEAP_MB,
): AsyncIterable<ImportRecord[] | OffersRecord[] | OrderDocumentRecord[]> {
  return batchesFromThread(kind, path, fileName, heapMb);
}

async function* batchesFromThread(
  kind: CommerceMlFileKind,
  path: string,
  fileName: string,
  heapMb: number,
): AsyncGenerator<ImportRecord[] | OffersRecord[] | OrderDocumentRecord[]> {
  const reading: ThreadReading = { kind, path, fileName };
  const worker = new Worker(THREAD_FILE, {
    workerData: reading,
    execArgv: THREAD_EXEC_ARGV,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(16, heapMb) },
  });
  // Messages and the thread's end, in order, for the loop below to take one at a time.
  const arrived: (ThreadMessage | { ended: Error | null })[] = [];
  let wake: (() => void) | null = null;
  const push = (item: ThreadMessage | { ended: Error | null }) => {
    arrived.push(item);
    wake?.();
    wake = null;
  };
  worker.on('message', (message: ThreadMessage) => push(message));
  worker.once('error', (error: Error & { code?: string }) =>
    push({
      ended:
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new CommerceMlError(fileName, null, 'файл слишком сложный: не хватило памяти, чтобы его прочитать')
          : error,
    }),
  );
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => push({ ended: null }));
  let awaitingAnswer = false;
  try {
    for (;;) {
      let next = arrived.shift();
      while (!next) {
        await new Promise<void>((resolve) => (wake = resolve));
        next = arrived.shift();
      }
      if ('batch' in next) {
        awaitingAnswer = true;
        yield next.batch as ImportRecord[] | OffersRecord[] | OrderDocumentRecord[];
        worker.postMessage('next' satisfies ThreadAcknowledgement);
        awaitingAnswer = false;
      } else if ('done' in next) return;
      else if ('refusal' in next) throw new CommerceMlError(next.refusal.file, next.refusal.line, next.refusal.reason);
      else if ('failure' in next) throw new Error(`reading ${fileName} failed: ${next.failure}`);
      else throw next.ended ?? new Error(`the thread reading ${fileName} ended without an answer`);
    }
  } finally {
    // The caller left its loop mid-file: the thread is told to stop, so it closes the file and
    // ends by itself; one that does not within a moment is ended here.
    if (awaitingAnswer) {
      worker.postMessage('stop' satisfies ThreadAcknowledgement);
      const stopped = await Promise.race([exited.then(() => true), delay(STOP_WAIT_MS, false, { ref: false })]);
      if (!stopped) await worker.terminate();
    } else await worker.terminate();
  }
}
