import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ZIP64_MARKER = 0xffffffff;

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65 535.
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset -= 1) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

/**
 * Whether a ZIP archive (an XLSX file) unpacks into at most `maxBytes` in all. exceljs inflates
 * every entry of a workbook into memory, so a few megabytes of zeros compressed a thousand times
 * over would take the server down: each entry is inflated here first, stopping at what is left of
 * the allowance, so sizes its directory understates are caught too. Anything this reader does not
 * follow (ZIP64, encryption, other methods, a broken directory) counts as too large.
 */
export function unzipsWithin(zip: Buffer, maxBytes: number): boolean {
  const end = endOfCentralDirectory(zip);
  if (end < 0) return false;
  const entries = zip.readUInt16LE(end + 10);
  let entry = zip.readUInt32LE(end + 16);
  let left = maxBytes;
  for (let n = 0; n < entries; n += 1) {
    if (entry + 46 > zip.length || zip.readUInt32LE(entry) !== CENTRAL_DIRECTORY_ENTRY) return false;
    const flags = zip.readUInt16LE(entry + 8);
    const method = zip.readUInt16LE(entry + 10);
    const compressedSize = zip.readUInt32LE(entry + 20);
    const size = zip.readUInt32LE(entry + 24);
    const local = zip.readUInt32LE(entry + 42);
    entry += 46 + zip.readUInt16LE(entry + 28) + zip.readUInt16LE(entry + 30) + zip.readUInt16LE(entry + 32);
    if ((flags & 1) !== 0 || size === ZIP64_MARKER || compressedSize === ZIP64_MARKER || size > left) return false;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) return false;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method === DEFLATED) {
      try {
        left -= inflateRawSync(data, { maxOutputLength: Math.max(left, 1) }).length;
      } catch {
        return false;
      }
    } else if (method === STORED) {
      left -= data.length;
    } else {
      return false;
    }
    if (left < 0) return false;
  }
  return true;
}
