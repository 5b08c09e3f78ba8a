import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AddressInput } from '../../../shared/api';
import fp from 'fastify-plugin';
import { notFound } from '../../api-error';
import { assertOwnUser } from '../../plugins/authentication';
import * as schema from './schema';

type AddressBody = Omit<AddressInput, 'apartment_number'> & { apartment_number?: string | null; user_id: number };

const toInput = ({ user_id: _owner, apartment_number, ...fields }: AddressBody): AddressInput => ({
  ...fields,
  apartment_number: apartment_number?.trim() || null,
});

const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { addresses } = app.repositories;
  // onRequest: a request without a valid token is refused before its body is even parsed or validated.
  app.addHook('onRequest', app.authenticate);

  app.post('/', { schema: schema.createAddress }, async (request, reply) => {
    assertOwnUser(request, request.body.user_id);
    return reply.code(201).send(await app.services.addresses.create(request.member, toInput(request.body)));
  });

  app.get('/:user_id', { schema: schema.listAddresses }, (request) => {
    assertOwnUser(request, request.params.user_id);
    return addresses.list(request.member);
  });

  app.put('/:id', { schema: schema.updateAddress }, async (request) => {
    assertOwnUser(request, request.body.user_id);
    const updated = await addresses.update(request.member, request.params.id, toInput(request.body));
    if (!updated) throw notFound('Адрес не найден');
    return updated;
  });

  app.delete('/:id', { schema: schema.deleteAddress }, async (request) => {
    if (!(await addresses.remove(request.member, request.params.id))) throw notFound('Адрес не найден');
    return { detail: 'Адрес удалён' };
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(addressRoutes, {
  name: 'address-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
