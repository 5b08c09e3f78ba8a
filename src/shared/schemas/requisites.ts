import { Type } from 'typebox';
import { Id } from './common';
import { OrderCreateBody } from './order';

const REQUISITE_FIELDS = ['company_name', 'company_inn', 'company_kpp', 'contact_name', 'contact_phone'] as const;

/**
 * The buyer's company and contact details that prefill the checkout (the profile's «Реквизиты и
 * адреса»): the order's own fields, so their limits are the order's. Blank or null means "not
 * given"; the ИНН and КПП rules (src/shared/requisites.ts) are checked by the handler so that it
 * answers with their own Russian messages.
 */
export const RequisitesBody = Type.Pick(OrderCreateBody, REQUISITE_FIELDS);

/** Every field present, null when not given. */
export const RequisitesSchema = Type.Required(RequisitesBody);

export const RequisitesParams = Type.Object({ user_id: Id });
