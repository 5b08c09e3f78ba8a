import { Type } from 'typebox';
import { Id, Nullable } from './common';
import { OrderCreateBody } from './order';

const REQUISITE_FIELDS = ['company_name', 'company_inn', 'company_kpp', 'contact_name', 'contact_phone'] as const;

/**
 * The buyer's company and contact details that prefill the checkout (the profile's «Реквизиты и
 * адреса»): the order's own fields, so their limits are the order's. Blank or null means "not
 * given"; the ИНН and КПП rules (src/shared/requisites.ts) are checked by the handler so that it
 * answers with their own Russian messages.
 */
export const RequisitesBody = Type.Pick(OrderCreateBody, REQUISITE_FIELDS);

/**
 * Every field present, null when not given. The company fields are those of the company's default
 * legal entity (legal_entity_id); the contact's name and phone are the employee's own.
 */
export const RequisitesSchema = Type.Object({
  ...Type.Required(RequisitesBody).properties,
  legal_entity_id: Nullable(Type.String({ format: 'uuid' }), { description: 'Юрлицо компании по умолчанию' }),
});

/**
 * PUT: the contact's name and phone, and the company's default legal entity, named by
 * `legal_entity_id` or (SPEC §7's fields) by its name, ИНН and КПП: the company's entity of those
 * codes, or a new one. A body without any of these leaves the default as it is; a blank ИНН clears it.
 */
export const RequisitesSaveBody = Type.Object({
  ...RequisitesBody.properties,
  legal_entity_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
});

export const RequisitesParams = Type.Object({ user_id: Id });
