import ExcelJS from 'exceljs';
import { PRICE_LIST_COLUMNS } from '../../../src/shared/schemas/admin-catalogue';
import { json, STARTUP_TIMEOUT } from '../helpers/test-app';
import { openBackOffice } from '../helpers/back-office';

it('measures a 50 000-row check, its pages, its XLSX and its apply', async () => {
  const { shop, manager } = await openBackOffice();
  try {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow([...PRICE_LIST_COLUMNS]);
    for (let i = 0; i < 50_000; i++) sheet.addRow([`M-${Math.floor(i / 5)}`, 'Мишка', 'Мишки', 'бежевый', (i % 5) + 10, 100 + (i % 7), 5]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)]), 'p.xlsx');
      return shop.app.inject({ method: 'POST', url: '/api/v1/admin/catalogue/import', query: { dry_run: 'true' }, headers: manager.headers, payload: form });
    };
    let t = Date.now();
    const checked = json<{ preview: { id: string }; created: number }>(await upload());
    console.log('check with preview ms', Date.now() - t, checked.created);
    const id = checked.preview.id;
    t = Date.now();
    const page = await shop.app.inject({ method: 'GET', url: `/api/v1/admin/catalogue/import/previews/${id}/changes`, query: { skip: '49900', limit: '100' }, headers: manager.headers });
    console.log('last page ms', Date.now() - t, page.statusCode);
    const heap = process.memoryUsage().heapUsed;
    t = Date.now();
    const xlsx = await shop.app.inject({ method: 'GET', url: `/api/v1/admin/catalogue/import/previews/${id}/changes.xlsx`, headers: manager.headers });
    console.log('xlsx ms', Date.now() - t, 'bytes', xlsx.rawPayload.length, 'heap delta MB', (process.memoryUsage().heapUsed - heap) / 1e6);
    t = Date.now();
    const applied = await shop.app.inject({ method: 'POST', url: `/api/v1/admin/catalogue/import/previews/${id}/apply`, headers: manager.headers });
    console.log('apply ms', Date.now() - t, applied.statusCode, applied.body.slice(0, 120));
  } finally {
    await shop.close();
  }
}, STARTUP_TIMEOUT * 10);
