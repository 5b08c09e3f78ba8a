import type { RequisitesFields } from '@shared/api';

/** Blank means "not given": the API wants null. */
export const blankToNull = (value: string | null | undefined) => value?.trim() || null;

const REQUISITE_NAMES = ['company_name', 'company_inn', 'company_kpp', 'contact_name', 'contact_phone'] as const;

/** The requisites as the API wants them, from a form's values (blank fields as null). */
export function requisitesOf(values: RequisitesFields): Required<RequisitesFields> {
  return Object.fromEntries(
    REQUISITE_NAMES.map((name) => [name, blankToNull(values[name])]),
  ) as Required<RequisitesFields>;
}
