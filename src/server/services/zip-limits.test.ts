import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { deflatedZeros, zipOf } from '../../../test/server/helpers/zip';
import { unzipsWithin } from './zip-limits';

const MB = 1024 * 1024;

describe('unzipsWithin', () => {
  it('passes a real workbook and an archive just within the allowance', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Лист').addRow(['Артикул', 'Цена']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(unzipsWithin(xlsx, MB)).toBe(true);
    expect(unzipsWithin(xlsx, 100)).toBe(false);

    const text = Buffer.from('x'.repeat(1000));
    const zip = zipOf([{ name: 'a.xml', deflated: deflateRawSync(text), declaredSize: 1000 }]);
    expect(unzipsWithin(zip, 1000)).toBe(true);
    expect(unzipsWithin(zip, 999)).toBe(false);
  });

  it('refuses a bomb, whether its directory tells the size or lies about it', async () => {
    const zeros = await deflatedZeros(64 * MB);
    expect(zeros.length).toBeLessThan(MB);
    expect(
      unzipsWithin(zipOf([{ name: 'xl/sharedStrings.xml', deflated: zeros, declaredSize: 64 * MB }]), 32 * MB),
    ).toBe(false);
    expect(unzipsWithin(zipOf([{ name: 'xl/sharedStrings.xml', deflated: zeros, declaredSize: 100 }]), 32 * MB)).toBe(
      false,
    );
  });

  it('refuses what is not a readable archive', () => {
    expect(unzipsWithin(Buffer.from('PK\u0003\u0004 and nothing else'), MB)).toBe(false);
    const zip = zipOf([{ name: 'a.xml', deflated: Buffer.from('not deflate data at all'), declaredSize: 10 }]);
    expect(unzipsWithin(zip, MB)).toBe(false);
  });
});
