/**
 * The thread an uploaded spreadsheet is read in (services/spreadsheet-reader.ts starts it, one a
 * file): it reads the file it is given in its workerData, answers one message and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UnsupportedFileTypeError, UploadRefusedError } from '../domain/domain-errors';
import { readWorksheet, sheetTable, type SheetTable, type WorksheetLimits } from './spreadsheet-file';

export interface SheetReading {
  file: Uint8Array;
  limits: WorksheetLimits;
  /**
   * The columns the header must name: only their cells are sent back, since taking a message in
   * holds the server's thread as long as it is (100 000 cells: about 0.1 s).
   */
  columns: readonly string[];
  /** Other columns read when the header has them (services/spreadsheet-file.ts `sheetTable`). */
  optionalColumns?: RegExp;
}

/** A refusal as it crosses from the thread: errors arrive as plain objects, so it says which it was. */
export interface SheetRefusal {
  unsupportedType: boolean;
  detail: string;
}

/** The table, or the refusal a user is shown, or an unexpected failure (a 500 on the server's side). */
export type SheetReadingResult = { table: SheetTable } | { refusal: SheetRefusal } | { failure: string };

async function read({ file, limits, columns, optionalColumns }: SheetReading): Promise<SheetReadingResult> {
  try {
    const sheet = await readWorksheet(Buffer.from(file.buffer, file.byteOffset, file.byteLength), limits);
    return { table: sheetTable(sheet, columns, optionalColumns) };
  } catch (error) {
    if (error instanceof UnsupportedFileTypeError || error instanceof UploadRefusedError)
      return { refusal: { unsupportedType: error instanceof UnsupportedFileTypeError, detail: error.detail } };
    return { failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

if (parentPort) {
  const port = parentPort;
  void read(workerData as SheetReading).then((result) => port.postMessage(result));
}
