import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { validEmail } from '../auth/checks';
import * as schema from './companies-schema';

/** The buyer companies in the back office («Компании»). */
export const companiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { companies } = app.services;

  app.get('/', { schema: schema.listCompanies }, (request) => {
    const { q, mine, skip, limit } = request.query;
    return companies.listForManagers({ q, managerId: mine ? request.userId : undefined, skip, limit });
  });

  app.get('/:id', { schema: schema.getCompany }, (request) => companies.adminView(request.params.id));

  app.patch('/:id', { schema: schema.updateCompany }, async (request) => {
    const updated = await companies.updateByManager(request.params.id, request.body, request.userId);
    // Its employees' prices: this process forgets them now (the trigger's NOTIFY reaches every
    // process too, but on PostgreSQL only after the next read may already have come).
    if (request.body.price_type_id !== undefined) app.priceViews.invalidate();
    return updated;
  });

  app.post('/:id/merge', { schema: schema.mergeCompanies }, (request) =>
    companies.merge(request.params.id, request.body.from_company_id, request.userId),
  );
};

/** The shop's managers as buyers see them («Менеджеры»). */
export const staffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: schema.listStaff }, () => app.services.companies.staff());

  app.patch('/:id', { schema: schema.updateStaff }, (request) => {
    // A contact address given is checked as a sign-up's is; left out or blank, it stays or clears.
    const contactEmail = request.body.contact_email;
    const fields = { ...request.body, contact_email: contactEmail ? validEmail(contactEmail) : contactEmail };
    return app.services.companies.updateStaff(request.params.id, fields, request.userId);
  });
};
