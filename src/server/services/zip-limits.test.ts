import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { deflatedZeros, withUncountedEntry, zipOf } from '../../../test/server/helpers/zip';
import { storedZipOf, unpackZip } from './zip-limits';

const MB = 1024 * 1024;

async function workbookFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Лист').addRow(['Артикул', 'Цена']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('unpackZip', () => {
  it('unpacks a real workbook and an archive just within the allowance', async () => {
    const xlsx = await workbookFile();
    expect([...unpackZip(xlsx, MB)!.keys()]).toEqual(
      expect.arrayContaining(['xl/workbook.xml', '[Content_Types].xml']),
    );
    expect(unpackZip(xlsx, 100)).toBeNull();

    const text = Buffer.from('x'.repeat(1000));
    const entry = { name: '/a.xml', deflated: deflateRawSync(text), declaredSize: 1000, crc: crc32(text) };
    expect(unpackZip(zipOf([entry]), 1000)).toEqual(new Map([['a.xml', text]]));
    expect(unpackZip(zipOf([entry]), 999)).toBeNull();
    // Bytes that are not the ones the archive's CRC was taken of.
    expect(unpackZip(zipOf([{ ...entry, crc: entry.crc ^ 1 }]), 1000)).toBeNull();
  });

  it('refuses a bomb, whether its directory tells the size or lies about it', async () => {
    const zeros = await deflatedZeros(64 * MB);
    expect(zeros.length).toBeLessThan(MB);
    const told = zipOf([{ name: 'xl/sharedStrings.xml', deflated: zeros, declaredSize: 64 * MB }]);
    expect(unpackZip(told, 32 * MB)).toBeNull();
    const understated = zipOf([{ name: 'xl/sharedStrings.xml', deflated: zeros, declaredSize: 100 }]);
    expect(unpackZip(understated, 32 * MB)).toBeNull();
  });

  it('refuses directory records the end record does not count', async () => {
    const xlsx = await workbookFile();
    const hidden = { name: 'x.xml', deflated: deflateRawSync(Buffer.from('x')), declaredSize: 1 };
    expect(unpackZip(withUncountedEntry(xlsx, hidden), MB)).toBeNull();
  });

  it('refuses two entries of one name and what is not a readable archive', () => {
    const one = { name: 'a.xml', deflated: deflateRawSync(Buffer.alloc(0)), declaredSize: 0 };
    expect(unpackZip(zipOf([one]), MB)).not.toBeNull();
    expect(unpackZip(zipOf([one, { ...one, name: '/a.xml' }]), MB)).toBeNull();
    expect(unpackZip(Buffer.from('PK\u0003\u0004 and nothing else'), MB)).toBeNull();
    const zip = zipOf([{ name: 'a.xml', deflated: Buffer.from('not deflate data at all'), declaredSize: 10 }]);
    expect(unpackZip(zip, MB)).toBeNull();
  });
});

describe('storedZipOf', () => {
  it('makes an archive that exceljs reads and that unpacks to the same files', async () => {
    const files = unpackZip(await workbookFile(), MB)!;
    const rebuilt = storedZipOf(files);
    expect(unpackZip(rebuilt, MB)).toEqual(files);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      rebuilt.buffer.slice(rebuilt.byteOffset, rebuilt.byteOffset + rebuilt.length) as ArrayBuffer,
    );
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, 'Артикул', 'Цена']);
  });
});
