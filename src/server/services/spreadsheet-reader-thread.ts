/**
 * The thread an uploaded spreadsheet is read in (services/spreadsheet-reader.ts starts it, one a
 * file): it reads the file it is given in its workerData, answers one message and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../errors';
import { readWorksheet, sheetRows, type SheetRow, type WorksheetLimits } from './spreadsheet-file';

export interface SheetReading {
  file: Uint8Array;
  limits: WorksheetLimits;
}

/** The rows, or the refusal a user is shown, or an unexpected failure (a 500 on the server's side). */
export type SheetReadingResult =
  { rows: SheetRow[] } | { refusal: { statusCode: number; detail: string } } | { failure: string };

async function read({ file, limits }: SheetReading): Promise<SheetReadingResult> {
  try {
    return { rows: sheetRows(await readWorksheet(Buffer.from(file.buffer, file.byteOffset, file.byteLength), limits)) };
  } catch (error) {
    if (error instanceof ApiError) return { refusal: { statusCode: error.statusCode, detail: error.detail } };
    return { failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

if (parentPort) {
  const port = parentPort;
  void read(workerData as SheetReading).then((result) => port.postMessage(result));
}
