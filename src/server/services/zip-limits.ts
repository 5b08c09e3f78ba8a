import { crc32, inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const CENTRAL_RECORD_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 1;
const ZIP64_MARKER = 0xffffffff;
const ZIP64_ENTRIES_MARKER = 0xffff;

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65 535.
  for (let offset = zip.length - END_RECORD_SIZE; offset >= Math.max(0, zip.length - 22 - 0xffff); offset -= 1) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

/** An archive's files by name (a leading «/» dropped, as exceljs drops it), each unpacked. */
export type UnpackedZip = Map<string, Buffer>;

/**
 * Every file of a ZIP archive (an XLSX file) unpacked, or null when they would come to more than
 * `maxBytes` in all or the archive is not one this reader follows exactly. exceljs (through JSZip)
 * inflates every entry of a workbook whole, and JSZip reads every directory record there is, however
 * many the end record declares: a 1 MB file that hid a bomb behind a short count once unpacked to
 * 1 GiB past a check that trusted the count. So nothing is trusted here: the directory must hold
 * exactly the records its end record declares and end exactly where that record begins; each entry
 * is inflated, stopping at what is left of the allowance, and must come out at the size and CRC its
 * record gives. Anything else (ZIP64, encryption, methods other than stored and deflated, two
 * entries of one name, data outside the file) is refused. The server gives exceljs only an archive
 * rebuilt from what this returns (`storedZipOf`), so JSZip never sees a byte that was not counted.
 */
export function unpackZip(zip: Buffer, maxBytes: number): UnpackedZip | null {
  const end = endOfCentralDirectory(zip);
  if (end < 0 || end + END_RECORD_SIZE + zip.readUInt16LE(end + 20) !== zip.length) return null;
  const disk = zip.readUInt16LE(end + 4);
  const directoryDisk = zip.readUInt16LE(end + 6);
  const entriesOnDisk = zip.readUInt16LE(end + 8);
  const entries = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryStart = zip.readUInt32LE(end + 16);
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entries || entries === ZIP64_ENTRIES_MARKER) return null;
  if (directorySize === ZIP64_MARKER || directoryStart === ZIP64_MARKER) return null;
  // The directory ends where the end record begins: no record can hide between them.
  if (directoryStart + directorySize !== end) return null;

  const files: UnpackedZip = new Map();
  let left = maxBytes;
  let record = directoryStart;
  for (let n = 0; n < entries; n += 1) {
    if (record + CENTRAL_RECORD_SIZE > end || zip.readUInt32LE(record) !== CENTRAL_DIRECTORY_ENTRY) return null;
    const flags = zip.readUInt16LE(record + 8);
    const method = zip.readUInt16LE(record + 10);
    const crc = zip.readUInt32LE(record + 16);
    const compressedSize = zip.readUInt32LE(record + 20);
    const size = zip.readUInt32LE(record + 24);
    const nameLength = zip.readUInt16LE(record + 28);
    const local = zip.readUInt32LE(record + 42);
    const nameStart = record + CENTRAL_RECORD_SIZE;
    record = nameStart + nameLength + zip.readUInt16LE(record + 30) + zip.readUInt16LE(record + 32);
    if (record > end) return null;
    if ((flags & ENCRYPTED) !== 0 || size === ZIP64_MARKER || compressedSize === ZIP64_MARKER || size > left) {
      return null;
    }
    const name = zip.toString('utf8', nameStart, nameStart + nameLength).replace(/^\//, '');
    if (files.has(name)) return null;
    if (local + LOCAL_HEADER_SIZE > directoryStart || zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) return null;
    const dataStart = local + LOCAL_HEADER_SIZE + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataStart + compressedSize > directoryStart) return null;
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    let content: Buffer;
    if (method === DEFLATED) {
      try {
        // One byte more than declared (which is within what is left): an entry that inflates beyond
        // its size is caught, not cut short.
        content = inflateRawSync(data, { maxOutputLength: size + 1 });
      } catch {
        return null;
      }
    } else if (method === STORED) {
      content = Buffer.from(data);
    } else {
      return null;
    }
    if (content.length !== size || crc32(content) !== crc) return null;
    left -= size;
    files.set(name, content);
  }
  // Exactly the declared records: JSZip would read any that followed.
  if (record !== end) return null;
  return files;
}

/** A ZIP archive of `files` as they are (stored, not compressed): what exceljs is given to read. */
export function storedZipOf(files: UnpackedZip): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const fileName = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(LOCAL_HEADER_SIZE);
    header.writeUInt32LE(LOCAL_FILE_HEADER, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0
    header.writeUInt16LE(0x0800, 6); // names in UTF-8
    header.writeUInt16LE(STORED, 8);
    header.writeUInt32LE(crc32(content), 14);
    header.writeUInt32LE(content.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(CENTRAL_RECORD_SIZE);
    central.writeUInt32LE(CENTRAL_DIRECTORY_ENTRY, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    header.copy(central, 6, 4, 30); // version needed to the name's length, as in the local header
    central.writeUInt32LE(offset, 42);
    parts.push(header, fileName, content);
    directory.push(central, fileName);
    offset += header.length + fileName.length + content.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const endRecord = Buffer.alloc(END_RECORD_SIZE);
  endRecord.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  endRecord.writeUInt16LE(files.size, 8);
  endRecord.writeUInt16LE(files.size, 10);
  endRecord.writeUInt32LE(directoryBytes.length, 12);
  endRecord.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directoryBytes, endRecord]);
}
