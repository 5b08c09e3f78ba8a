/**
 * The thread a CommerceML file is parsed in (commerceml/read-in-thread.ts starts it, one a file):
 * it reads the file its workerData names with the matching reader and posts the batches one at a
 * time, each only once the server's thread has acknowledged the one before, so however large the
 * file, at most one batch is in flight.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readImportFile } from './read-import';
import { readOffersFile } from './read-offers';
import { readOrdersFile } from './read-orders';
import { CommerceMlError } from './records';

export type CommerceMlFileKind = 'import' | 'offers' | 'orders';

export interface ThreadReading {
  kind: CommerceMlFileKind;
  path: string;
  fileName: string;
}

/** What the thread posts: a batch (to be acknowledged), the end, or why it stopped. */
export type ThreadMessage =
  | { batch: unknown[] }
  | { done: true }
  | { refusal: { file: string; line: number | null; reason: string } }
  | { failure: string };

const readers = { import: readImportFile, offers: readOffersFile, orders: readOrdersFile };

/** The server's thread's answer to a batch: read on, or stop (its caller left the loop). */
export type ThreadAcknowledgement = 'next' | 'stop';

async function read(port: NonNullable<typeof parentPort>, { kind, path, fileName }: ThreadReading) {
  const acknowledged = () =>
    new Promise<ThreadAcknowledgement>((resolve) =>
      port.once('message', (answer: ThreadAcknowledgement) => resolve(answer)),
    );
  try {
    for await (const batch of readers[kind](path, fileName)) {
      const answer = acknowledged();
      port.postMessage({ batch } satisfies ThreadMessage);
      // Leaving the loop closes the file (the reader's `finally`); then the thread has nothing left and ends.
      if ((await answer) === 'stop') return;
    }
    port.postMessage({ done: true } satisfies ThreadMessage);
  } catch (error) {
    port.postMessage(
      (error instanceof CommerceMlError
        ? { refusal: { file: error.file, line: error.line, reason: error.reason } }
        : { failure: error instanceof Error ? (error.stack ?? error.message) : String(error) }) satisfies ThreadMessage,
    );
  }
}

if (parentPort) void read(parentPort, workerData as ThreadReading);
