import { Type } from 'typebox';
import { LIMITS } from '../api';
import { Nullable } from './common';

// Blank or null means "not given"; the ИНН and КПП rules (src/shared/requisites.ts) are checked by
// the handler so that it answers with their own Russian messages.
const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));

/** The buyer's company and contact details that prefill the checkout (the profile's «Реквизиты и адреса»). */
export const RequisitesSchema = Type.Object({
  company_name: Text(LIMITS.companyNameMax),
  company_inn: Text(100),
  company_kpp: Text(100),
  contact_name: Text(LIMITS.nameMax),
  contact_phone: Text(LIMITS.phoneMax),
});
