import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { IMAGE_NAME_PATTERN } from '../../services/catalogue-images';
import { MARKETPLACE_PHOTO_FILE, pictureOfMarketplacePhoto } from '../../services/marketplace-photos';
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

const notModified = Type.Null({ description: 'Не изменилось: If-None-Match назвал текущий ETag, тела нет' });

/**
 * Answers a picture whose address always means the same bytes (a name derived from its content):
 * cached for good, its ETag the file name itself, so a revalidation is answered before any read.
 * `find` reads it; null is 404 with `missing`.
 */
async function sendForGood(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  find: () => Promise<{ contentType: string; data: Buffer } | null>,
  missing: string,
) {
  const etag = `"${file}"`;
  const cachedForGood = () =>
    reply.header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`).header('etag', etag);
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return cachedForGood().code(304).send(null);
  const picture = await find();
  if (!picture) throw notFound(missing);
  return cachedForGood().type(picture.contentType).send(picture.data);
}

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
  const { marketplacePhotos } = app.services;

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
          304: notModified,
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
      // The name is a digest of the bytes: a name always means the same picture.
      return sendForGood(request, reply, name, () => uploaded.find(name), 'Изображение не найдено');
    },
  );

  app.get(
    '/marketplace/:file',
    {
      schema: {
        tags: ['images'],
        summary:
          'Фото товара для маркетплейсов: JPEG 3:4 не меньше 900×1200 на белом, как в наборе «Карточки для ' +
          'маркетплейсов»; file — имя загруженного фото товара с .jpg вместо .webp. Публичная постоянная ссылка: ' +
          'фото готовится один раз и хранится; 503 с Retry-After — сервер сейчас готовит другие фото',
        params: Type.Object({ file: Type.String({ pattern: MARKETPLACE_PHOTO_FILE }) }),
        response: {
          200: fileAnswer('JPEG 3:4', ['image/jpeg']),
          304: notModified,
          ...errors(404, 422),
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      reply.header('content-security-policy', INERT).header('x-content-type-options', 'nosniff');
      // The uploaded picture's name is a digest of its bytes, and its photo is made once and kept,
      // never replaced (db/schema.ts marketplacePhotos): the address always means the same bytes.
      const find = async () => {
        const photo = await marketplacePhotos.forLink(pictureOfMarketplacePhoto(file));
        return photo && { contentType: 'image/jpeg', data: photo.data };
      };
      return sendForGood(request, reply, file, find, 'Фото для маркетплейсов не найдено: нет такого фото товара');
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(imageRoutes, {
  name: 'image-routes',
  encapsulate: true,
  dependencies: ['config', 'database', 'services'],
});
