import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { createImagesRepository } from '../../repositories/images';
import { IMAGE_NAME_PATTERN } from '../../services/catalogue-images';
import { UPLOADED_IMAGE_NAME } from '../../services/uploaded-images';
import { errors } from '../common-schemas';
import { notFound } from '../../errors';

const DAY_SECONDS = 24 * 60 * 60;
const YEAR_SECONDS = 365 * DAY_SECONDS;
// SVG is a document that could carry script: keep every picture inert even if opened directly.
const INERT = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const imageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyStatic, {
    root: app.config.imageDir,
    serve: false,
    maxAge: DAY_SECONDS * 1000,
    etag: true,
    lastModified: true,
  });
  const uploaded = createImagesRepository(app.database.db);

  app.get(
    '/:name',
    {
      schema: {
        tags: ['images'],
        summary: 'Изображение товара, баннера или страницы «О компании»; загруженные менеджерами — из базы данных',
        params: Type.Object({ name: Type.String({ pattern: IMAGE_NAME_PATTERN }) }),
        response: { 200: Type.Unknown({ description: 'Файл изображения' }), 304: Type.Null(), ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      reply.header('content-security-policy', INERT).header('x-content-type-options', 'nosniff');
      if (!UPLOADED_IMAGE_NAME.test(name)) return reply.sendFile(name);

      // The name is a digest of the bytes: a name always means the same picture, so it is
      // cached for good and its ETag is the name itself.
      const etag = `"${name}"`;
      reply.header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`).header('etag', etag);
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send(null);
      const image = await uploaded.find(name);
      if (!image) {
        reply.removeHeader('cache-control').removeHeader('etag');
        throw notFound('Изображение не найдено');
      }
      return reply.type(image.contentType).send(image.data);
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(imageRoutes, { name: 'image-routes', encapsulate: true, dependencies: ['config', 'database'] });
