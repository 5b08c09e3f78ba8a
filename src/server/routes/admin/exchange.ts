import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { attachmentDisposition } from '../attachment';
import { publicOrigin } from '../../public-origin';
import * as schema from './exchange-schema';

/** The back office's «Обмен с 1С» (/api/v1/admin/exchange). */
const exchangeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { exchangeAdmin } = app.services;

  app.get('/', { schema: schema.overview }, (request) => exchangeAdmin.overview(publicOrigin(request)));

  app.put('/settings', { schema: schema.putSettings }, (request) =>
    exchangeAdmin.setSettings(request.body, request.userId),
  );

  app.post('/accounts', { schema: schema.grantAccount }, async (request, reply) =>
    reply.code(201).send(await exchangeAdmin.grant(request.body.email, request.userId)),
  );

  app.delete('/accounts/:id', { schema: schema.revokeAccount }, async (request, reply) => {
    await exchangeAdmin.revoke(request.params.id, request.userId);
    return reply.code(204).send(null);
  });

  app.put('/price-types/:external_id', { schema: schema.mapPriceType }, (request) =>
    exchangeAdmin.mapPriceType(request.params.external_id, request.body.price_type_id, request.userId),
  );

  app.put('/warehouses/:external_id', { schema: schema.setWarehouse }, (request) =>
    exchangeAdmin.setWarehouseUsed(request.params.external_id, request.body.used, request.userId),
  );

  app.get('/runs', { schema: schema.runs }, (request) => exchangeAdmin.runs(request.query.skip, request.query.limit));

  // The name may hold the folders of a zip's entries (import_files/ab/…): encoded in one segment.
  app.get('/runs/:id/files/:name', { schema: schema.runFile }, async (request, reply) => {
    const file = await exchangeAdmin.keptFile(request.params.id, request.params.name);
    return reply
      .type('application/octet-stream')
      .header('content-length', file.bytes)
      .header('content-disposition', attachmentDisposition(file.fileName))
      .header('cache-control', 'private, no-store')
      .send(createReadStream(file.path));
  });

  app.post('/resend', { schema: schema.resend }, (request) =>
    exchangeAdmin.resend(request.body.order_ids, request.userId),
  );
};

export default exchangeRoutes;
