import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ExportQuery,
  ImportQuery,
  ImportResultSchema,
  PreviewChangesQuery,
  PreviewChangesSchema,
  PreviewParams,
  PreviewSummarySchema,
} from '../../../shared/schemas/admin-catalogue';
import { moscowDay } from '../../../shared/dates';
import { kopecksToRubles } from '../../../shared/money';
import { rublesOrNone, type ImportOutcome, type PreviewedRow } from '../../domain/price-list-rows';
import {
  cardChangesOf,
  listedErrors,
  MAX_PRICE_LIST_BYTES,
  readPriceList,
  writePreviewChanges,
  writePriceList,
} from '../../services/price-list';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { attachmentDisposition } from '../attachment';
import { errors, fileAnswer, managersOnly } from '../common-schemas';
import { acceptSingleFileUploads, singleFileForm } from '../single-file-upload';

const catalogueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const readUpload = await acceptSingleFileUploads(app, MAX_PRICE_LIST_BYTES);
  const { priceListImport } = app.services;

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
      const { priceList } = app.repositories;
      const types = await priceList.priceTypes();
      const file = await writePriceList(await priceList.rows(types), types, format);
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
      const file = await readPriceList(await readUpload(request), await app.repositories.priceList.priceTypes());
      // With errors in the file the database is only read, to list its own errors beside them.
      const outcome = await priceListImport.importRows(file.rows, {
        dryRun: dryRun || file.errors.length > 0,
        byUserId: request.userId,
        keepPreview: file.errors.length === 0,
      });
      const rowErrors = [...file.errors, ...outcome.errors].sort((a, b) => a.row - b.row);
      if (rowErrors.length > 0) {
        return { ...importAnswer(dryRun, NOTHING), errors: listedErrors(rowErrors) };
      }
      if (!dryRun && outcome.created + outcome.updated > 0) app.catalogueCache.invalidate();
      return importAnswer(dryRun, outcome);
    },
  );

  app.get(
    '/import/previews/:id',
    {
      schema: managersOnly({
        summary: 'Сохранённая проверка прайс-листа: сколько строк изменится; только своя и пока не устарела',
        params: PreviewParams,
        response: { 200: PreviewSummarySchema, ...errors(404) },
      }),
    },
    async (request) => {
      const preview = await priceListImport.preview(request.params.id, request.userId);
      return {
        id: preview.id,
        created: preview.created,
        updated: preview.updated,
        unchanged: preview.unchanged,
        new_products: preview.newProducts,
        expires_at: preview.expiresAt.toISOString(),
      };
    },
  );

  app.get(
    '/import/previews/:id/changes',
    {
      schema: managersOnly({
        summary:
          'Страница изменений проверки: строки файла, которые изменят или добавят вариант, что было и что станет',
        params: PreviewParams,
        querystring: PreviewChangesQuery,
        response: { 200: PreviewChangesSchema, ...errors(404) },
      }),
    },
    async (request) => {
      const { id } = request.params;
      const { skip, limit } = request.query;
      const preview = await priceListImport.preview(id, request.userId);
      const rows = await priceListImport.previewChanges(id, request.userId, skip, limit);
      const layout = await app.repositories.priceList.previewLayout(id);
      return {
        price_types: layout.priceTypes,
        packaging: layout.packaging,
        card: layout.card,
        items: rows.map(changeAnswer),
        total: preview.created + preview.updated,
      };
    },
  );

  app.get(
    '/import/previews/:id/changes.xlsx',
    {
      schema: managersOnly({
        summary: 'Все изменения проверки одним файлом XLSX (пишется по мере чтения)',
        params: PreviewParams,
        response: {
          200: fileAnswer('Изменения прайс-листа; имя — в Content-Disposition', [SPREADSHEET_CONTENT_TYPES.xlsx]),
          ...errors(404),
        },
      }),
    },
    async (request, reply) => {
      const { id } = request.params;
      // Checked before the first byte: a stranger's or an expired preview is a 404, not a broken file.
      await priceListImport.preview(id, request.userId);
      const file = new PassThrough();
      const { priceList } = app.repositories;
      const layout = await priceList.previewLayout(id);
      writePreviewChanges(layout, priceList.allPreviewChanges(id), file).catch((error: unknown) => {
        request.log.error({ err: error }, 'the preview file could not be written');
        file.destroy(error as Error);
      });
      return reply
        .type(SPREADSHEET_CONTENT_TYPES.xlsx)
        .header(
          'content-disposition',
          attachmentDisposition(`myagkiy-opt-price-list-changes-${moscowDay(new Date())}.xlsx`),
        )
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  app.post(
    '/import/previews/:id/apply',
    {
      schema: managersOnly({
        summary:
          'Применить проверенный прайс-лист ровно таким, каким он был проверен; если каталог с тех пор изменился — 409 и ничего не изменено',
        params: PreviewParams,
        response: { 200: ImportResultSchema, ...errors(404, 409) },
      }),
    },
    async (request) => {
      const outcome = await priceListImport.applyPreview(request.params.id, request.userId);
      app.catalogueCache.invalidate();
      return importAnswer(false, outcome);
    },
  );
};

const NOTHING: ImportOutcome = { created: 0, updated: 0, unchanged: 0, newProducts: 0, errors: [], preview: null };

function importAnswer(dryRun: boolean, outcome: ImportOutcome) {
  return {
    dry_run: dryRun,
    created: outcome.created,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    new_products: outcome.newProducts,
    errors: [],
    preview: outcome.preview && { id: outcome.preview.id, expires_at: outcome.preview.expiresAt.toISOString() },
  };
}

function changeAnswer(row: PreviewedRow) {
  return {
    row: row.row,
    kind: row.kind === 'created' ? ('created' as const) : ('updated' as const),
    new_product: row.newProduct,
    art: row.art,
    name: row.name,
    category: row.category,
    color: row.color,
    size: row.size,
    price: kopecksToRubles(row.priceKopecks),
    stock: row.stock,
    old_name: row.oldName,
    old_category: row.oldCategory,
    old_price: rublesOrNone(row.oldPriceKopecks),
    old_stock: row.oldStock,
    prices: row.typePrices.map(({ code, priceKopecks }, index) => ({
      code,
      price: rublesOrNone(priceKopecks),
      old_price: rublesOrNone(row.oldTypePrices[index] ?? null),
    })),
    multiple: row.packaging?.multiple ?? null,
    min_quantity: row.packaging?.min_quantity ?? null,
    old_multiple: row.oldPackaging?.multiple ?? null,
    old_min_quantity: row.oldPackaging?.min_quantity ?? null,
    card_changes: cardChangesOf(row).map(({ column, before, after }) => ({ column, old_value: before, value: after })),
  };
}

export default catalogueRoutes;
