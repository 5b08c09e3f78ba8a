import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { errors } from '../common-schemas';

// A plain file name: no separators and no leading dot, so a name can never leave the image folder.
const IMAGE_NAME = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\\.(svg|png|jpe?g|webp|avif|gif)$';
const DAY_SECONDS = 24 * 60 * 60;

const imageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyStatic, {
    root: app.config.imageDir,
    serve: false,
    maxAge: DAY_SECONDS * 1000,
    etag: true,
    lastModified: true,
  });

  app.get(
    '/:name',
    {
      schema: {
        tags: ['images'],
        summary: 'Изображение товара, баннера или страницы «О компании»',
        params: Type.Object({ name: Type.String({ pattern: IMAGE_NAME }) }),
        response: { 200: Type.Unknown({ description: 'Файл изображения' }), ...errors(404, 422) },
      },
    },
    (request, reply) => {
      // SVG is a document that could carry script: keep it inert even if opened directly.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      return reply.sendFile(request.params.name);
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(imageRoutes, { name: 'image-routes', encapsulate: true, dependencies: ['config'] });
