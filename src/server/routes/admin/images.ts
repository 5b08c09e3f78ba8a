import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UploadedImageSchema } from '../../../shared/schemas/admin-catalogue';
import { isSmallForMarketplace } from '../../../shared/product-card';
import { MAX_IMAGE_BYTES, reencodeUploadedImage, uploadedImageMaster } from '../../services/uploaded-images';
import { errors, managersOnly } from '../common-schemas';
import { acceptSingleFileUploads, singleFileForm } from '../single-file-upload';

const imagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const readUpload = await acceptSingleFileUploads(app, MAX_IMAGE_BYTES);

  app.post(
    '/',
    {
      schema: managersOnly({
        summary:
          'Загрузить картинку товара или баннера (JPEG, PNG, WebP, AVIF до 10 МБ); хранится перекодированной в WebP ' +
          'и копией высокого качества для маркетплейсов',
        body: { content: singleFileForm('JPEG, PNG, WebP или AVIF') },
        response: { 201: UploadedImageSchema, ...errors(413, 415, 422) },
      }),
    },
    async (request, reply) => {
      const upload = await readUpload(request);
      const image = await reencodeUploadedImage(upload);
      const master = await uploadedImageMaster(upload);
      await app.services.imageUploads.save(image, master, request.userId);
      return reply.code(201).send({
        name: image.name,
        width: image.width,
        height: image.height,
        master: { width: master.width, height: master.height },
        small_for_marketplace: isSmallForMarketplace(master.width, master.height),
      });
    },
  );
};

export default imagesRoutes;
