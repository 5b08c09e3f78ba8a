import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { UnsupportedFileTypeError, UploadReadersBusyError, UploadRefusedError } from '../domain/domain-errors';
import { assertSpreadsheetKind, type SheetTable, type WorksheetLimits } from './spreadsheet-file';
import type { SheetReading, SheetReadingResult, SheetRefusal } from './spreadsheet-reader-thread';

/**
 * Uploaded spreadsheets are read in a thread of their own (services/spreadsheet-reader-thread.ts):
 * exceljs parses a workbook on the thread that calls it, and a 1.3 MB quick order held the server's
 * event loop for 1.5 s, every other request waiting. In a thread, each read also has a heap of its
 * own with a ceiling and a time limit, and its memory goes back when the thread ends.
 */

/**
 * Reads at once in one server process; more wait their turn. Each takes a core while it lasts (and
 * its heap): one core is left to the server's own thread, whose requests would otherwise wait for
 * the CPU however free its event loop is.
 */
export const SPREADSHEET_READS_AT_ONCE = Math.max(1, availableParallelism() - 1);
/** A read still going after this is stopped: the file is refused as too complex. */
export const SPREADSHEET_READ_TIMEOUT_MS = 30_000;

export interface SheetReadLimits extends WorksheetLimits {
  /** The thread's heap (V8's old generation), in MB: beyond it the thread is stopped and the file refused. */
  maxHeapMb: number;
}

export interface SheetRequest extends SheetReadLimits {
  /** The columns the header row must name (services/spreadsheet-file.ts `sheetTable`). */
  columns: readonly string[];
  /** Other columns to read when the header has them: each whose header (trimmed) matches. */
  optionalColumns?: RegExp;
}

/**
 * Node runs the thread's file itself: the compiled one beside this in build/ (`npm start`), or,
 * from the TypeScript sources (the tests, `npm run dev:server`), the .ts one through tsx's loader.
 */
const fromSources = __filename.endsWith('.ts');
const THREAD_FILE = path.join(__dirname, `spreadsheet-reader-thread.${fromSources ? 'ts' : 'js'}`);
const THREAD_EXEC_ARGV = fromSources ? ['--require', require.resolve('tsx/cjs')] : undefined;

const refusalOf = ({ unsupportedType, detail }: SheetRefusal) =>
  unsupportedType ? new UnsupportedFileTypeError(detail) : new UploadRefusedError(detail);

const tooComplex = () =>
  new UploadRefusedError(
    'Файл слишком сложный, чтобы прочитать его: оставьте в нём только нужный лист и столбцы или разделите на части',
  );

/**
 * Reads that may wait for their turn in one process, each holding its file meanwhile; one more is
 * refused at once (503, with the error handler's Retry-After) rather than kept waiting without end.
 */
export const SPREADSHEET_READS_WAITING_MAX = 16;

let readsRunning = 0;
const waiting: (() => void)[] = [];

async function inTurn<Result>(read: () => Promise<Result>): Promise<Result> {
  if (readsRunning >= SPREADSHEET_READS_AT_ONCE) {
    if (waiting.length >= SPREADSHEET_READS_WAITING_MAX) {
      throw new UploadReadersBusyError();
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else readsRunning += 1;
  try {
    return await read();
  } finally {
    // The turn passes straight to the next waiting read, if any, without being given up between.
    const next = waiting.shift();
    if (next) next();
    else readsRunning -= 1;
  }
}

function readInThread(file: Buffer, request: SheetRequest): Promise<SheetTable> {
  const { maxHeapMb, columns, optionalColumns, ...limits } = request;
  const reading: SheetReading = { file, limits, columns, optionalColumns };
  const worker = new Worker(THREAD_FILE, {
    workerData: reading,
    execArgv: THREAD_EXEC_ARGV,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
  });
  return new Promise<SheetTable>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(tooComplex());
      void worker.terminate();
    }, SPREADSHEET_READ_TIMEOUT_MS);
    worker.once('message', (result: SheetReadingResult) => {
      clearTimeout(timer);
      if ('table' in result) resolve(result.table);
      else if ('refusal' in result) reject(refusalOf(result.refusal));
      else reject(new Error(`reading a spreadsheet failed: ${result.failure}`));
    });
    worker.once('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex() : error);
    });
    worker.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('the spreadsheet thread ended without an answer'));
    });
  });
}

/**
 * The header and rows of the first sheet of an uploaded XLSX or CSV (services/spreadsheet-file.ts:
 * `readWorksheet` says which files are refused and how, `sheetTable` what is read), read in a
 * thread of their own, at most SPREADSHEET_READS_AT_ONCE at once in the process; a read that needs
 * more heap than allowed or more than SPREADSHEET_READ_TIMEOUT_MS is 422 too.
 */
export async function readSheetTable(file: Buffer, request: SheetRequest): Promise<SheetTable> {
  assertSpreadsheetKind(file);
  return inTurn(() => readInThread(file, request));
}
