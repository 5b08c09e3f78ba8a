import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { forbidden, notFound } from '../../api-error';
import { publicOrigin } from '../../public-origin';
import { companyTypeFeed, visitorsFeed, type FeedKind } from '../../services/feeds';
import { errors } from '../common-schemas';

/** How long a request for a feed never built waits for its first build before 503 (well within nginx's 60 s). */
const FIRST_BUILD_WAIT_MS = 45_000;

const xmlFile = (description: string) => ({
  description,
  content: { 'application/xml': { schema: Type.String() } },
});

const tags = ['feeds'];

/**
 * The product feeds in Yandex Market's YML (docs/decisions.md, «Фиды товаров»): the visitors' at
 * /api/v1/feed.yml, and each company's at its secret address, which its owner gets in the
 * profile (routes/company). Streamed from the files services/feeds.ts builds.
 */
const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function sendFeed(request: FastifyRequest, reply: FastifyReply, kind: FeedKind, cacheControl: string) {
    const file = await app.feedFiles.file(kind, publicOrigin(request), FIRST_BUILD_WAIT_MS);
    if (!file.ready) {
      // Answered here, not thrown: the error handler would log every such request as a failure
      // (the build's failure is logged once, where it failed) and set its own Retry-After.
      return reply
        .code(503)
        .header('retry-after', String(file.retryAfterSeconds))
        .send({
          detail: file.failed
            ? 'Фид товаров не удалось подготовить: повторите запрос позже'
            : 'Фид товаров готовится: повторите запрос через минуту',
        });
    }
    const etag = `"${file.name}"`;
    reply
      .header('etag', etag)
      .header('last-modified', file.builtAt.toUTCString())
      .header('cache-control', cacheControl);
    if (request.headers['if-none-match'] === etag) {
      await file.handle.close();
      return reply.code(304).send();
    }
    return reply.type('application/xml; charset=utf-8').send(file.handle.createReadStream());
  }

  app.get(
    '/feed.yml',
    {
      schema: {
        tags,
        summary: 'Фид товаров витрины в YML (Яндекс Маркет) с ценами для посетителей',
        description:
          'Одно предложение на вариант товара, варианты товара объединены group_id. Пока цены показываются ' +
          'только после входа, в фиде нет цен. Обновляется после изменений каталога не чаще раза в FEED_REFRESH_SECONDS.',
        response: { 200: xmlFile('yml_catalog'), 304: Type.Null(), ...errors(503) },
      },
    },
    async (request, reply) => {
      const view = app.priceViews.visitorNow() ?? (await app.priceViews.forVisitor());
      return sendFeed(request, reply, visitorsFeed(view), 'public, max-age=300');
    },
  );

  app.get(
    '/feed/:token.yml',
    {
      schema: {
        tags,
        summary: 'Фид товаров компании в YML: цены её типа цен, рекомендованная розничная цена, остатки',
        description:
          'Секретный адрес выдаёт владелец компании (POST /api/v1/company/feed). Неизвестный, заменённый или ' +
          'отключённый адрес — 404; компания, которой магазин приостановил заказы, — 403.',
        params: Type.Object({ token: Type.String({ maxLength: 100 }) }),
        response: { 200: xmlFile('yml_catalog'), 304: Type.Null(), ...errors(403, 404, 503) },
      },
    },
    async (request, reply) => {
      const company = await app.services.companyFeeds.companyOf(request.params.token);
      if (!company) throw notFound('Фид не найден: адрес неверен, заменён или отключён');
      if (company.blocked) throw forbidden('Фид компании приостановлен магазином: свяжитесь с вашим менеджером');
      const typeId = company.priceTypeId ?? (await app.priceViews.catalogueTypes()).defaultTypeId;
      // The address is the secret: no shared cache keeps what it answers.
      return sendFeed(request, reply, companyTypeFeed(typeId), 'private, no-cache');
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(feedRoutes, {
  name: 'feed-routes',
  encapsulate: true,
  dependencies: ['config', 'database', 'services', 'catalogue-cache', 'feeds'],
});
