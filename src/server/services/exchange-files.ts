import { createWriteStream } from 'node:fs';
import { mkdir, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ExchangeRefusedError } from '../domain/domain-errors';

/**
 * The names 1С gives its files: import.xml, offers0_1.xml, import_files/ab/abc.jpg — letters (Cyrillic
 * too), digits, `_-.`, segments joined by `/`. Nothing else is taken: no absolute path, no drive
 * letter, no backslash, no NUL, no `.` or `..` segment, so a name never leaves the run's folder.
 */
const SEGMENT = /^[\p{L}\p{N}_.-]{1,255}$/u;
const MAX_NAME_LENGTH = 1024;

export function isSafeFileName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  return name.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

/** The file's path within `folder`, the name checked first; refused (ExchangeRefusedError) otherwise. */
export function pathInFolder(folder: string, name: string): string {
  const target = path.resolve(folder, name);
  if (!isSafeFileName(name) || !target.startsWith(folder + path.sep)) {
    throw new ExchangeRefusedError(`Недопустимое имя файла «${name.slice(0, 200)}»`);
  }
  return target;
}

/** Counts the bytes through it and fails once they pass `limit`. */
function byteCounter(limit: number, tooMany: () => Error, onBytes: (bytes: number) => void = () => {}): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      onBytes(chunk.length);
      done(bytes > limit ? tooMany() : null, chunk);
    },
  });
}

/**
 * Appends `body` to the file (made with its folders when new), at most `limit` bytes of it. A body
 * past the limit is read to its end but not kept (the client is answered, not cut off mid-request),
 * and on any failure the file is cut back to what it had, so a refused or broken chunk leaves no
 * half of itself. Returns the file's size after.
 */
export async function appendChunk(file: string, body: Readable, limit: number, tooLarge: () => Error): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true });
  const before = await stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
  let bytes = 0;
  let overflow = false;
  const upToLimit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      overflow ||= bytes > limit;
      done(null, overflow ? undefined : chunk);
    },
  });
  try {
    await pipeline(body, upToLimit, createWriteStream(file, { flags: 'a' }));
    if (overflow) throw tooLarge();
  } catch (error) {
    await truncate(file, before).catch(() => {});
    throw error;
  }
  return (await stat(file)).size;
}

export interface UnpackLimits {
  /** Inflated bytes the archives may give in all, counted as they inflate. */
  maxBytes: number;
  maxEntries: number;
}

/**
 * Unpacks the zip into `folder`, each entry streamed to disk under its own name (checked as
 * `filename` is), overwriting what is there: unpacking again gives the same files. Sizes the archive
 * declares are not trusted: the inflated bytes are counted against `left.bytes` as they come (and
 * yauzl refuses an entry inflating past its declared size). Returns the files written with their sizes.
 */
export async function unpackZip(
  zipPath: string,
  folder: string,
  left: { bytes: number; entries: number },
): Promise<{ name: string; bytes: number }[]> {
  const zipName = path.basename(zipPath);
  const refused = (reason: string) => new ExchangeRefusedError(`Архив «${zipName}» не распакован: ${reason}`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, opened) =>
      error ? reject(refused(`это не zip-архив или он повреждён (${error.message})`)) : resolve(opened),
    ),
  );
  const written: { name: string; bytes: number }[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        zip.close();
        reject(
          error instanceof ExchangeRefusedError ? error : refused(`архив повреждён (${(error as Error).message})`),
        );
      };
      zip.on('error', fail);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          left.entries -= 1;
          if (left.entries < 0) throw refused('в архивах обмена слишком много файлов');
          // A folder's own entry: its files make it when they are written.
          if (entry.fileName.endsWith('/')) return;
          if (!isSafeFileName(entry.fileName))
            throw refused(`недопустимое имя файла «${entry.fileName.slice(0, 200)}»`);
          const target = pathInFolder(folder, entry.fileName);
          await mkdir(path.dirname(target), { recursive: true });
          const stream = await new Promise<Readable>((resolveStream, rejectStream) =>
            zip.openReadStream(entry, (error, opened) => (error ? rejectStream(error) : resolveStream(opened))),
          );
          let bytes = 0;
          await pipeline(
            stream,
            byteCounter(
              left.bytes,
              () => refused('распакованные файлы обмена больше допустимого'),
              (count) => (bytes += count),
            ),
            createWriteStream(target),
          );
          left.bytes -= bytes;
          written.push({ name: entry.fileName, bytes });
        })().then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return written;
}
