import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, ImportQuery, ImportResultSchema } from '../../../shared/schemas/admin-catalogue';
import { moscowDay } from '../../moscow-time';
import { createPriceListRepository } from '../../repositories/price-list';
import { listedErrors, MAX_PRICE_LIST_BYTES, readPriceList, writePriceList } from '../../services/price-list';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { attachmentDisposition } from '../attachment';
import { errors, fileAnswer, managersOnly } from '../common-schemas';
import { acceptSingleFileUploads, singleFileForm } from '../single-file-upload';

const catalogueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const readUpload = await acceptSingleFileUploads(app, MAX_PRICE_LIST_BYTES);
  const priceList = createPriceListRepository(app.database.db);

  app.get(
    '/export',
    {
      schema: managersOnly({
        summary: 'Прайс-лист: строка на каждый вариант товаров витрины (XLSX или CSV для Excel)',
        querystring: ExportQuery,
        // The file's types are its 200's alone (`produces` would say them of the {detail} errors too).
        response: {
          200: fileAnswer('Файл прайс-листа; имя — в Content-Disposition', Object.values(SPREADSHEET_CONTENT_TYPES)),
          ...errors(422),
        },
      }),
    },
    async (request, reply) => {
      const { format } = request.query;
      const file = await writePriceList(await priceList.rows(), format);
      // Named by today in Moscow, the shop's time.
      const fileName = `myagkiy-opt-price-list-${moscowDay(new Date())}.${format}`;
      return reply
        .type(SPREADSHEET_CONTENT_TYPES[format])
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  app.post(
    '/import',
    {
      schema: managersOnly({
        summary:
          'Загрузить прайс-лист (XLSX или CSV, те же столбцы): всё или ничего; dry_run=true только считает. Ошибки строк — в errors, тогда ничего не изменено',
        body: { content: singleFileForm('Прайс-лист XLSX или CSV') },
        querystring: ImportQuery,
        response: { 200: ImportResultSchema, ...errors(409, 413, 415, 422) },
      }),
    },
    async (request) => {
      const { dry_run: dryRun } = request.query;
      const file = await readPriceList(await readUpload(request));
      // With errors in the file the database is only read, to list its own errors beside them.
      const applied = await priceList.importRows(file.rows, {
        dryRun: dryRun || file.errors.length > 0,
        byUserId: request.userId,
      });
      const rowErrors = [...file.errors, ...applied.errors].sort((a, b) => a.row - b.row);
      if (rowErrors.length > 0) {
        return { dry_run: dryRun, created: 0, updated: 0, unchanged: 0, errors: listedErrors(rowErrors) };
      }
      if (!dryRun && applied.created + applied.updated > 0) app.catalogueCache.invalidate();
      return {
        dry_run: dryRun,
        created: applied.created,
        updated: applied.updated,
        unchanged: applied.unchanged,
        errors: [],
      };
    },
  );
};

export default catalogueRoutes;
