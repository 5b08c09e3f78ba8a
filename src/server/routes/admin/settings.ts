import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierRequisitesProblem } from '../../../shared/requisites';
import type { SupplierRequisites } from '../../../shared/schemas/settings';
import { unprocessable } from '../../api-error';
import * as schema from './schema';
import { getStorefrontSettings, putStorefrontSettings } from './price-types-schema';

/** Text as it will print: trimmed; a blank КПП is no КПП (an ИП has none). */
function tidy(details: SupplierRequisites): SupplierRequisites {
  const trimmed = Object.fromEntries(
    Object.entries(details).map(([field, value]) => [field, typeof value === 'string' ? value.trim() : value]),
  ) as SupplierRequisites;
  return { ...trimmed, kpp: trimmed.kpp || null };
}

/** The shop's own settings: the supplier's details that every invoice prints, the storefront's prices. */
const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { supplierRequisites } = app.repositories;

  app.get('/requisites', { schema: schema.getSupplierRequisites }, () => supplierRequisites.find());

  app.put('/requisites', { schema: schema.putSupplierRequisites }, async (request) => {
    const details = tidy(request.body);
    const problem = supplierRequisitesProblem(details);
    if (problem) throw unprocessable(problem);
    return supplierRequisites.save(details, request.userId);
  });

  app.get('/storefront', { schema: getStorefrontSettings }, () => app.services.priceTypes.storefrontSettings());

  app.put('/storefront', { schema: putStorefrontSettings }, async (request) => {
    const settings = await app.services.priceTypes.setStorefrontSettings(request.body, request.userId);
    app.priceViews.invalidate();
    app.catalogueCache.invalidate();
    return settings;
  });
};

export default settingsRoutes;
