import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { IMAGE_NAME_PATTERN } from '../../services/catalogue-images';
import { UPLOADED_IMAGE_NAME } from '../../services/uploaded-images';
import { ErrorSchema } from '../../../shared/schemas/common';
import { errors, fileAnswer } from '../common-schemas';
import { notFound } from '../../api-error';

/** What each picture's extension is served as (IMAGE_NAME_PATTERN allows these and no others). */
const IMAGE_CONTENT_TYPES = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
} as const;

const DAY_SECONDS = 24 * 60 * 60;
const YEAR_SECONDS = 365 * DAY_SECONDS;
// SVG is a document that could carry script: keep every picture inert even if opened directly.
const INERT = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const imageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyStatic, {
    root: app.config.imageDir,
    serve: false,
    maxAge: DAY_SECONDS * 1000,
    // A picture is small and fetched whole: no 206 partial answers (nor 416) to document or test.
    acceptRanges: false,
    etag: true,
    lastModified: true,
  });
  const uploaded = app.repositories.images;

  app.get(
    '/:name',
    {
      schema: {
        tags: ['images'],
        summary: 'Изображение товара, баннера или страницы «О компании»; загруженные менеджерами — из базы данных',
        params: Type.Object({ name: Type.String({ pattern: IMAGE_NAME_PATTERN }) }),
        response: {
          200: fileAnswer(
            'Файл изображения; загруженные менеджерами — всегда WebP',
            Object.values(IMAGE_CONTENT_TYPES),
          ),
          304: Type.Null({ description: 'Не изменилось: If-None-Match назвал текущий ETag, тела нет' }),
          412: Type.Object(ErrorSchema.properties, {
            description: 'Условие If-Match или If-Unmodified-Since не выполнено',
          }),
          ...errors(404, 422),
        },
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
