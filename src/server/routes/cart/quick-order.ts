import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CART_IMPORT_MAX_BYTES } from '../../../shared/cart-import';
import { moscowDay } from '../../../shared/dates';
import { ApiError } from '../../api-error';
import { LineRefusedError } from '../../domain/domain-errors';
import { assertOwnUser } from '../../plugins/authentication';
import {
  checkQuickOrder,
  namedArticles,
  readPastedQuickOrder,
  readUploadedQuickOrder,
  writeCartSheet,
} from '../../services/quick-order';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { attachmentDisposition } from '../attachment';
import { acceptSingleFileUploads } from '../single-file-upload';
import * as schema from './schema';

/**
 * The quick order and the cart's export. A plugin of its own because its import takes
 * what the storefront's other routes refuse with 415: pasted text and a form with a file. JSON and
 * form-encoded bodies are refused here instead.
 */
const WHAT_TO_SEND = 'Отправьте строки текстом (text/plain) или файл XLSX или CSV формой multipart/form-data';

const quickOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { cart, quickOrderImports } = app.repositories;
  const importLimit = app.config.buyerLimits.quickOrderImports;
  app.removeAllContentTypeParsers();
  const readUpload = await acceptSingleFileUploads(app, CART_IMPORT_MAX_BYTES);
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit: CART_IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', (_request, _payload, done) => done(new ApiError(415, WHAT_TO_SEND)));

  app.post('/import', { schema: schema.importToCart }, async (request, reply) => {
    // Each import reads a file or up to 5 000 lines and looks them up: counted per account in the
    // database, for every process, before the file is even read.
    const retryAfter = await quickOrderImports.record(request.userId, importLimit);
    if (retryAfter !== null) {
      reply.header('retry-after', String(retryAfter));
      throw new ApiError(
        429,
        `Слишком много проверок быстрого заказа подряд: не больше ${importLimit.max} за ${Math.ceil(importLimit.windowMs / 60_000)} мин. Повторите через ${retryAfter} с`,
      );
    }
    const entries = request.isMultipart()
      ? await readUploadedQuickOrder(await readUpload(request))
      : readPastedQuickOrder(typeof request.body === 'string' ? request.body : '');
    // Two reads however many lines: the named articles' variants, and what the cart already holds.
    const [variants, countsInCart] = await Promise.all([
      cart.variantsOfArticles(namedArticles(entries), request.member.priceTypeId),
      cart.countsByVariant(request.userId),
    ]);
    const result = checkQuickOrder(entries, variants, countsInCart);
    if (request.query.dry_run) return result;
    if (result.invalid > 0) {
      return reply.code(422).send({
        detail: `В корзину ничего не добавлено: строк с ошибками — ${result.invalid}. Исправьте их и загрузите снова`,
        ...result,
      });
    }
    try {
      await app.services.cart.addMany(
        request.member,
        result.lines.map((line) => ({
          product_id: line.product_id!,
          variant_id: line.variant_id!,
          count: line.count!,
        })),
      );
    } catch (error) {
      // A line the cart refuses after the check (sold out, hidden or filled in another tab just
      // then) is named by its number in the buyer's text or file, not by its place among those sent.
      if (error instanceof LineRefusedError)
        throw new LineRefusedError(result.lines[error.line - 1]!.line, error.reason);
      throw error;
    }
    return result;
  });

  app.get('/:user_id/export', { schema: schema.exportCart }, async (request, reply) => {
    assertOwnUser(request, request.params.user_id);
    const { format } = request.query;
    const file = await writeCartSheet(await app.services.cart.view(request.member), format);
    // Named by today in Moscow, the shop's time, as a Russian reads a date.
    const [year, month, day] = moscowDay(new Date()).split('-');
    return reply
      .type(SPREADSHEET_CONTENT_TYPES[format])
      .header(
        'content-disposition',
        attachmentDisposition(`Корзина ${day}.${month}.${year}.${format}`, `cart-${year}-${month}-${day}.${format}`),
      )
      .header('cache-control', 'private, no-store')
      .send(file);
  });
};

export default quickOrderRoutes;
