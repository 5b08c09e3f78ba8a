import type { FormRule } from 'antd';
import type { LegalEntityFields } from '@shared/api';
import { COMPANY_MESSAGES, INN_LENGTH_OF_KIND, type LegalEntityKind } from '@shared/company';
import {
  accountProblem,
  bikProblem,
  corrAccountProblem,
  innProblem,
  kppProblem,
  ogrnProblem,
} from '@shared/requisites';
import { blankToNull } from '@/features/requisites/requisitesValues';

/** What the legal entity's dialog holds: the API's fields, each as typed (blank or absent when not given). */
export type LegalEntityForm = { [Field in keyof LegalEntityFields]?: string | null } & { kind: LegalEntityKind };

/** A rule that asks `problem` about the field's value (blank values are the `required` rules' business). */
const checkedBy =
  (problem: (value: string, form: LegalEntityForm) => string | null): FormRule =>
  ({ getFieldsValue }) => ({
    validator: async (_rule, value: string | null | undefined) => {
      const given = blankToNull(value);
      const found = given && problem(given, getFieldsValue(true) as LegalEntityForm);
      if (found) throw new Error(found);
    },
  });

/**
 * The same rules the server applies (src/shared/requisites.ts), before anything is sent: the ИНН's
 * check digits and its length for the kind (12 digits for an ИП, 10 for an organisation), the
 * organisation's КПП, the ОГРН or ОГРНИП, the БИК and the accounts keyed by it.
 */
export const LEGAL_ENTITY_RULES = {
  name: [{ required: true, whitespace: true, message: 'Укажите наименование' }],
  inn: [
    { required: true, whitespace: true, message: 'Укажите ИНН' },
    checkedBy(
      (inn, { kind }) =>
        innProblem(inn) ?? (inn.length === INN_LENGTH_OF_KIND[kind] ? null : COMPANY_MESSAGES.innKindMismatch),
    ),
  ],
  kpp: [
    { required: true, whitespace: true, message: COMPANY_MESSAGES.kppRequired },
    checkedBy((kpp, { inn }) => kppProblem(kpp, blankToNull(inn))),
  ],
  ogrn: [checkedBy((ogrn, { inn }) => ogrnProblem(ogrn, blankToNull(inn)))],
  bik: [checkedBy((bik) => bikProblem(bik))],
  account: [
    checkedBy((account, { bik }) =>
      blankToNull(bik) ? accountProblem(account, bik!.trim()) : COMPANY_MESSAGES.bikNeeded,
    ),
  ],
  corr_account: [
    checkedBy((account, { bik }) =>
      blankToNull(bik) ? corrAccountProblem(account, bik!.trim()) : COMPANY_MESSAGES.bikNeeded,
    ),
  ],
} satisfies Partial<Record<keyof LegalEntityFields, FormRule[]>>;

/** The dialog's values as the API takes them: blanks as null, an ИП without a КПП, the address always a string. */
export function legalEntityFieldsOf(form: LegalEntityForm): LegalEntityFields {
  return {
    kind: form.kind,
    name: form.name!.trim(),
    inn: form.inn!.trim(),
    kpp: form.kind === 'org' ? blankToNull(form.kpp) : null,
    ogrn: blankToNull(form.ogrn),
    address: form.address?.trim() ?? '',
    bank_name: blankToNull(form.bank_name),
    bik: blankToNull(form.bik),
    account: blankToNull(form.account),
    corr_account: blankToNull(form.corr_account),
  };
}
