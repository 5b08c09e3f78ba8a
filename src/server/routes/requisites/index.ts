import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { mayEditLegalEntities } from '../../../shared/company';
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
    return requisites.find(request.userId, request.member.companyId);
  });

  app.put('/:user_id', { schema: schema.saveRequisites }, async (request) => {
    assertOwnUser(request, request.params.user_id);
    const { body, member } = request;
    const inn = blankToNull(body.company_inn);
    const kpp = blankToNull(body.company_kpp);
    const problem = requisitesProblem(inn, kpp);
    if (problem) throw unprocessable(problem);
    // The company's default legal entity is the owner's and the accountant's to choose, and only
    // when the body speaks of it: a form that shows only the employee's name and phone leaves it
    // as it is, and from a purchaser's form (which sends the fields it was shown) only the contact
    // details are taken.
    const namesLegalEntity = [body.legal_entity_id, body.company_name, body.company_inn, body.company_kpp].some(
      (field) => field !== undefined,
    );
    if (namesLegalEntity && mayEditLegalEntities(member.role)) {
      if (body.legal_entity_id !== undefined)
        await app.services.companies.setDefaultLegalEntity(member, body.legal_entity_id);
      else if (inn)
        await app.services.companies.saveDefaultLegalEntityCodes(member, {
          name: blankToNull(body.company_name),
          inn,
          kpp,
        });
      else await app.services.companies.setDefaultLegalEntity(member, null);
    }
    await requisites.saveContact(request.userId, {
      contact_name: blankToNull(body.contact_name),
      contact_phone: blankToNull(body.contact_phone),
    });
    return requisites.find(request.userId, member.companyId);
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(requisitesRoutes, {
  name: 'requisites-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
