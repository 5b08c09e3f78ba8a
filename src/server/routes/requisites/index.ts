import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import type { RequisitesFields } from '../../../shared/api';
import { requisitesProblem } from '../../../shared/requisites';
import { unprocessable } from '../../api-error';
import { assertOwnUser } from '../../plugins/authentication';
import * as schema from './schema';

const blankToNull = (value: string | null | undefined) => value?.trim() || null;

const requisitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { requisites } = app.repositories;
  // onRequest: a request without a valid token is refused before its body is even parsed or validated.
  app.addHook('onRequest', app.authenticate);

  app.get('/:user_id', { schema: schema.getRequisites }, (request) => {
    assertOwnUser(request, request.params.user_id);
    return requisites.find(request.userId);
  });

  app.put('/:user_id', { schema: schema.saveRequisites }, (request) => {
    assertOwnUser(request, request.params.user_id);
    const body: RequisitesFields = request.body;
    const saved = {
      company_name: blankToNull(body.company_name),
      company_inn: blankToNull(body.company_inn),
      company_kpp: blankToNull(body.company_kpp),
      contact_name: blankToNull(body.contact_name),
      contact_phone: blankToNull(body.contact_phone),
    };
    const problem = requisitesProblem(saved.company_inn, saved.company_kpp);
    if (problem) throw unprocessable(problem);
    return requisites.save(request.userId, saved);
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(requisitesRoutes, {
  name: 'requisites-routes',
  encapsulate: true,
  dependencies: ['database', 'authentication'],
});
