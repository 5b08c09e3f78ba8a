import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { EXCHANGE_PATH } from '../../../shared/exchange';
import { CommerceMlError } from '../../commerceml/records';
import { ExchangeRefusedError, ExchangeSignInError, ExchangeThrottledError } from '../../domain/domain-errors';
import { classify } from '../../plugins/error-handler';
import { EXCHANGE_COOKIE } from '../../services/exchange-endpoint';

const TEXT = 'text/plain; charset=utf-8';
/** 1С reads its answers line by line, each ending in `\n`. */
const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');

const KINDS = { catalog: 'catalog', sale: 'sale' } as const;

const query = Type.Object({
  type: Type.String({ maxLength: 20, description: 'catalog (товары) или sale (заказы)' }),
  mode: Type.String({ maxLength: 40, description: 'checkauth, init, file, import, query, success, complete, …' }),
  filename: Type.Optional(Type.String({ maxLength: 1024 })),
  // Newer 1С releases send these; the session is the cookie's, so they are accepted and not used.
  version: Type.Optional(Type.String({ maxLength: 40 })),
  sessid: Type.Optional(Type.String({ maxLength: 200 })),
});

/**
 * /1c_exchange: 1С's «Обмен с сайтом» (CommerceML 2) — README, «Обмен с 1С». Answers are plain
 * text lines (`success`, `progress`, `failure` and the reason); the catalogue's files and the orders
 * are read and written by their services. Outside /api and its document (it takes files), and so
 * outside the fuzzer, which follows that document.
 */
const exchangeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const endpoint = app.services.exchangeEndpoint;
  const { exchangeCatalogue, exchangeOrders } = app.services;

  // 1С's `file` body is raw bytes of any type (often none): handed on as the stream it is, appended
  // to disk as it arrives, never held whole. Only this plugin's route reads bodies so.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const [classified, detail] = error instanceof CommerceMlError ? [400, error.message] : classify(error);
    // 1С tells no kinds of bad input apart: a parameter the schema refuses is a 400 like the rest.
    const status = classified === 422 ? 400 : classified;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof ExchangeThrottledError) reply.header('retry-after', String(error.seconds));
    if (error instanceof ExchangeSignInError)
      reply.header('www-authenticate', 'Basic realm="1c_exchange", charset="UTF-8"');
    return reply.code(status).type(TEXT).send(lines('failure', detail));
  });

  app.route({
    method: ['GET', 'POST'],
    url: EXCHANGE_PATH,
    schema: { hide: true, querystring: query },
    handler: async (request, reply) => {
      endpoint.checkAddress(request.ip);
      reply.type(TEXT);
      const { type, mode, filename } = request.query;
      const kind = Object.hasOwn(KINDS, type) ? KINDS[type as keyof typeof KINDS] : undefined;
      if (!kind) throw new ExchangeRefusedError(`Неизвестный тип обмена «${type.slice(0, 20)}»`);
      const needName = () => {
        if (!filename) throw new ExchangeRefusedError('Не указано имя файла (filename)');
        return filename;
      };

      if (mode === 'checkauth') {
        const { cookie, sessionId } = await endpoint.signIn(request.ip, request.headers.authorization);
        // As Bitrix answers: newer 1С reads the fourth line and sends it back as `sessid`, which is not needed here.
        return lines('success', EXCHANGE_COOKIE, cookie, `sessid=${sessionId}`);
      }
      const session = await endpoint.session(request.headers.cookie);
      if (mode === 'init') {
        await endpoint.init(session, kind);
        // Zips of the catalogue are unpacked at its first `import`; the orders' file is one small XML.
        const zip = kind === 'catalog' ? 'yes' : 'no';
        return lines(`zip=${zip}`, `file_limit=${app.config.exchange.fileLimitBytes}`, `sessid=${session.id}`);
      }
      if (mode === 'file') {
        const runId = endpoint.runOf(session, kind);
        const name = needName();
        const body = request.body as Readable | undefined;
        if (!body) throw new ExchangeRefusedError('Нет тела запроса: файл не получен');
        const path = await endpoint.receive(runId, name, body);
        if (kind === 'sale') {
          await exchangeOrders.applyFile(runId, path, name);
          // 1С's cancels return stock: this process drops its cached answers at once, as every
          // route that changes the catalogue does; the others hear the transaction's notice.
          app.catalogueCache.invalidate();
        }
        return lines('success');
      }
      if (kind === 'catalog' && mode === 'import') {
        const runId = endpoint.runOf(session, kind);
        const name = needName();
        endpoint.pathOf(runId, name);
        if ((await endpoint.unpack(runId)) === 'progress') return lines('progress', 'Распаковка архива');
        const step = await exchangeCatalogue.importStep(runId, name, endpoint.folderOf(runId), session.userId);
        if (step === 'progress') return lines('progress', `Загрузка ${name}`);
        app.catalogueCache.invalidate();
        return lines('success');
      }
      if (kind === 'sale' && mode === 'query') {
        const xml = await exchangeOrders.query(endpoint.runOf(session, kind));
        return reply.type('application/xml; charset=utf-8').send(xml);
      }
      if (kind === 'sale' && mode === 'success') {
        await exchangeOrders.confirm(endpoint.runOf(session, kind));
        return lines('success');
      }
      // complete, deactivate and whatever else a newer release sends: nothing to do, and never a failure.
      return lines('success');
    },
  });
};

// Encapsulated: its body parser and its error answers stay on its own route.
export default fp(exchangeRoutes, {
  name: 'exchange-routes',
  encapsulate: true,
  dependencies: ['config', 'services', 'error-handling', 'catalogue-cache'],
});
