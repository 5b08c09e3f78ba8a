import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { Nullable } from './common';

/** The VAT rates the tax code has (НК РФ ст. 164; 22 % from 2026, 5 and 7 % for the simplified system). */
export const VAT_RATES = [0, 5, 7, 10, 20, 22] as const;

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/**
 * The supplier's details printed on every invoice (`PUT /api/v1/admin/settings/requisites`). The
 * shapes are loose on purpose: the ИНН, КПП, ОГРН, БИК and the accounts are checked by
 * `supplierRequisitesProblem` (src/shared/requisites.ts), which answers with its own Russian messages.
 */
export const SupplierRequisitesBody = Type.Object({
  name: Text(LIMITS.companyNameMax),
  inn: Text(100),
  // Only an organisation has a КПП; an ИП's is null.
  kpp: Nullable(Type.String({ maxLength: 100 })),
  ogrn: Text(100),
  address: Text(LIMITS.addressMax),
  bank_name: Text(LIMITS.companyNameMax),
  bik: Text(100),
  account: Text(100),
  corr_account: Text(100),
  vat_rate: Nullable(Type.Enum(VAT_RATES, { description: 'Ставка НДС, %; null — без НДС' })),
  payment_days: Type.Integer({ minimum: 1, maximum: 365, description: 'Срок оплаты счёта, дней' }),
});

export type SupplierRequisites = Static<typeof SupplierRequisitesBody>;

/** GET /api/v1/admin/settings/requisites: null until a manager has filled them in. */
export const SupplierRequisitesAnswer = Nullable(SupplierRequisitesBody, {
  description: 'Реквизиты продавца; null — ещё не заполнены',
});
