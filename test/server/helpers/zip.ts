import { once } from 'node:events';
import { createDeflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The entry's bytes as deflate compressed them. */
  deflated: Buffer;
  /** The size the archive's headers declare, true or not. */
  declaredSize: number;
  /** The CRC-32 of the inflated bytes the headers declare: 0 unless given (a bomb's is never checked). */
  crc?: number;
}

/** `bytes` zero bytes deflated, made a megabyte at a time so the test never holds them all. */
export async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const megabyte = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += megabyte.length) {
    if (!deflate.write(megabyte.subarray(0, Math.min(megabyte.length, bytes - written)))) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(chunks);
}

/** A ZIP archive (what an XLSX file is) of deflated entries, with the sizes they are said to have. */
export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, deflated, declaredSize, crc = 0 } of entries) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(declaredSize, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(declaredSize, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, deflated);
    directory.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

/**
 * `zip` with one more entry that its end record does not count (the directory's size does count
 * it, so the directory still ends where the end record begins): JSZip, inside exceljs, reads every
 * directory record there is, and so inflates the hidden entry as well.
 */
export function withUncountedEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const directoryStart = zip.readUInt32LE(end + 16);
  const hidden = zipOf([entry]);
  const hiddenEnd = hidden.length - 22;
  const hiddenDirectoryStart = hidden.readUInt32LE(hiddenEnd + 16);
  const hiddenLocal = hidden.subarray(0, hiddenDirectoryStart);
  const hiddenRecord = Buffer.from(hidden.subarray(hiddenDirectoryStart, hiddenEnd));
  // The hidden entry's data goes where the directory began; the directory moves up behind it.
  hiddenRecord.writeUInt32LE(directoryStart, 42);
  const endRecord = Buffer.from(zip.subarray(end));
  endRecord.writeUInt32LE(endRecord.readUInt32LE(12) + hiddenRecord.length, 12);
  endRecord.writeUInt32LE(directoryStart + hiddenLocal.length, 16);
  return Buffer.concat([
    zip.subarray(0, directoryStart),
    hiddenLocal,
    zip.subarray(directoryStart, end),
    hiddenRecord,
    endRecord,
  ]);
}
