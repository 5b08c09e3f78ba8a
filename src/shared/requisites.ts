// ИНН and КПП as the tax service defines them, checked the same way by the checkout, the profile
// and the server (docs/decisions.md: the old shop's 12-only rule rejected every organisation).
import { COMPANY_MESSAGES, INN_LENGTH_OF_KIND, type LegalEntityKind } from './company';
import { LIMITS } from './limits';
import { MESSAGES } from './messages';
import type { SupplierRequisites } from './schemas/settings';

// The tax service's weights for the check digits (Приказ ФНС, algorithm of the ИНН control number).
const WEIGHTS_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: number[], weights: number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * digits[index]!, 0);
  return (sum % 11) % 10;
}

/** The message for an ИНН that is not valid, or null for a valid one (10 or 12 digits). */
export function innProblem(inn: string): string | null {
  if (!/^\d+$/.test(inn) || !(LIMITS.innLengths as readonly number[]).includes(inn.length)) return MESSAGES.innLength;
  const digits = [...inn].map(Number);
  const valid =
    digits.length === 10
      ? checkDigit(digits, WEIGHTS_10) === digits[9]
      : checkDigit(digits, WEIGHTS_11) === digits[10] && checkDigit(digits, WEIGHTS_12) === digits[11];
  return valid ? null : MESSAGES.innChecksum;
}

/** Four digits (tax office), two digits or capital Latin letters (reason), three digits (number). */
const KPP_PATTERN = /^\d{4}[\dA-Z]{2}\d{3}$/;

/**
 * The message for a КПП that is not valid next to this ИНН, or null. Only organisations (a
 * 10-digit ИНН) have a КПП; a КПП beside a 12-digit ИНН is refused.
 */
export function kppProblem(kpp: string, inn: string | null): string | null {
  if (inn?.length === 12) return MESSAGES.kppWithPersonalInn;
  return KPP_PATTERN.test(kpp) ? null : MESSAGES.kppLength;
}

/** The first problem of a buyer's ИНН and КПП (null: not given), or null when both are valid. */
export function requisitesProblem(inn: string | null, kpp: string | null): string | null {
  return (inn && innProblem(inn)) || (kpp && kppProblem(kpp, inn)) || null;
}

/**
 * What is wrong with the supplier's details, in the style of the API's MESSAGES. Kept here, not
 * in src/shared/api.ts, because the storefront's first load carries MESSAGES and only the back
 * office and the server need these (0.24 KB gzip off the home page).
 */
export const SUPPLIER_MESSAGES = {
  bikInvalid: 'БИК должен содержать 9 цифр и начинаться с 04.',
  accountLength: 'Расчётный счёт должен содержать 20 цифр.',
  accountChecksum: 'Некорректный расчётный счёт: не сходится контрольный ключ с БИК.',
  corrAccountShape: 'Корреспондентский счёт должен содержать 20 цифр и начинаться с 301.',
  corrAccountChecksum: 'Некорректный корреспондентский счёт: не сходится контрольный ключ с БИК.',
  ogrnLength: 'ОГРН должен содержать 13 цифр (организация) или 15 цифр (ИП).',
  ogrnChecksum: 'Некорректный ОГРН: не сходится контрольное число.',
  ogrnInnMismatch: 'ОГРН из 13 цифр — у организации (ИНН из 10 цифр), ОГРНИП из 15 цифр — у ИП (ИНН из 12 цифр).',
  incomplete: 'Заполните реквизиты поставщика: ',
} as const;

/** Nine digits; every БИК of a bank in Russia starts with 04 (the country's code in the directory). */
const BIK_PATTERN = /^04\d{7}$/;

export function bikProblem(bik: string): string | null {
  return BIK_PATTERN.test(bik) ? null : SUPPLIER_MESSAGES.bikInvalid;
}

/**
 * The Bank of Russia's control key of an account («порядок расчёта контрольного ключа»): the
 * three digits the БИК gives, then the 20 digits of the account, weighted 7, 1, 3 over and over; the
 * sum of the products ends in 0 when the key (the account's ninth digit) is right.
 */
function accountKeyHolds(bikDigits: string, account: string): boolean {
  const weights = [7, 1, 3];
  const sum = [...(bikDigits + account)].reduce(
    (total, digit, index) => total + Number(digit) * weights[index % 3]!,
    0,
  );
  return sum % 10 === 0;
}

/** A settlement account is keyed with the last three digits of its bank's БИК. */
export function accountProblem(account: string, bik: string): string | null {
  if (!/^\d{20}$/.test(account)) return SUPPLIER_MESSAGES.accountLength;
  return bikProblem(bik) === null && accountKeyHolds(bik.slice(-3), account) ? null : SUPPLIER_MESSAGES.accountChecksum;
}

/** A correspondent account at the Central Bank is keyed with "0" and the БИК's fifth and sixth digits. */
export function corrAccountProblem(corrAccount: string, bik: string): string | null {
  if (!/^301\d{17}$/.test(corrAccount)) return SUPPLIER_MESSAGES.corrAccountShape;
  return bikProblem(bik) === null && accountKeyHolds(`0${bik.slice(4, 6)}`, corrAccount)
    ? null
    : SUPPLIER_MESSAGES.corrAccountChecksum;
}

/**
 * The message for an ОГРН (13 digits, an organisation) or ОГРНИП (15 digits, an ИП) that is not
 * valid, or null. The last digit is the rest of the number before it divided by 11 (ОГРН) or 13
 * (ОГРНИП), its last digit taken. Beside an ИНН, the kinds must agree.
 */
export function ogrnProblem(ogrn: string, inn: string | null): string | null {
  if (!/^(\d{13}|\d{15})$/.test(ogrn)) return SUPPLIER_MESSAGES.ogrnLength;
  const divisor = ogrn.length === 13 ? 11 : 13;
  const rest = [...ogrn.slice(0, -1)].reduce((remainder, digit) => (remainder * 10 + Number(digit)) % divisor, 0);
  if (rest % 10 !== Number(ogrn.at(-1))) return SUPPLIER_MESSAGES.ogrnChecksum;
  const organisation = ogrn.length === 13;
  return inn === null || organisation === (inn.length === 10) ? null : SUPPLIER_MESSAGES.ogrnInnMismatch;
}

/** The first problem with the supplier's details, or null when the invoice can carry them. */
export function supplierRequisitesProblem(details: SupplierRequisites): string | null {
  const { inn, kpp, ogrn, bik, account, corr_account } = details;
  return (
    supplierRequisitesMissing(details) ??
    innProblem(inn) ??
    (kpp ? kppProblem(kpp, inn) : null) ??
    ogrnProblem(ogrn, inn) ??
    bikProblem(bik) ??
    accountProblem(account, bik) ??
    corrAccountProblem(corr_account, bik)
  );
}

/** How the back office and the messages name the supplier's details. */
export const SUPPLIER_FIELD_LABELS: Record<keyof SupplierRequisites, string> = {
  name: 'наименование',
  inn: 'ИНН',
  kpp: 'КПП',
  ogrn: 'ОГРН',
  address: 'адрес',
  bank_name: 'банк',
  bik: 'БИК',
  account: 'расчётный счёт',
  corr_account: 'корреспондентский счёт',
  vat_rate: 'ставка НДС',
  payment_days: 'срок оплаты',
};

/**
 * What the supplier's details still lack for an invoice («Заполните реквизиты поставщика: ИНН,
 * БИК.»), or null when nothing does. Stored details may be absent or partly blank; an
 * organisation (a 10-digit ИНН) needs a КПП too. A missing VAT rate means «без НДС», not a gap.
 */
export function supplierRequisitesMissing(details: Partial<SupplierRequisites> | null): string | null {
  const given = details ?? {};
  const blank = (Object.keys(SUPPLIER_FIELD_LABELS) as (keyof SupplierRequisites)[]).filter((field) => {
    if (field === 'vat_rate') return false;
    if (field === 'kpp') return given.inn?.length === 10 && !given.kpp;
    const value = given[field];
    return value === undefined || value === null || value === '';
  });
  return blank.length === 0
    ? null
    : `${SUPPLIER_MESSAGES.incomplete}${blank.map((field) => SUPPLIER_FIELD_LABELS[field]).join(', ')}.`;
}

/** A legal entity's codes as its form and the API take them: trimmed, blanks as null. */
export interface LegalEntityCodes {
  kind: LegalEntityKind;
  inn: string;
  kpp: string | null;
  ogrn: string | null;
  bik: string | null;
  account: string | null;
  corr_account: string | null;
}

/**
 * The first problem of a buyer's legal entity, or null: the ИНН and its kind (an ИП's has 12
 * digits and no КПП, an organisation's 10 and a КПП), the ОГРН beside it, and the bank's details
 * (an account is checked against its БИК, so either needs it).
 */
export function legalEntityProblem(entity: LegalEntityCodes): string | null {
  const { kind, inn, kpp, ogrn, bik, account, corr_account } = entity;
  const innRefused = innProblem(inn);
  if (innRefused) return innRefused;
  if (inn.length !== INN_LENGTH_OF_KIND[kind]) return COMPANY_MESSAGES.innKindMismatch;
  if (kind === 'ip' && kpp) return COMPANY_MESSAGES.kppForIp;
  if (kind === 'org' && !kpp) return COMPANY_MESSAGES.kppRequired;
  if (kpp) {
    const kppRefused = kppProblem(kpp, inn);
    if (kppRefused) return kppRefused;
  }
  if (ogrn) {
    const ogrnRefused = ogrnProblem(ogrn, inn);
    if (ogrnRefused) return ogrnRefused;
  }
  if ((account || corr_account) && !bik) return COMPANY_MESSAGES.bikNeeded;
  return (
    (bik && bikProblem(bik)) ||
    (account && bik && accountProblem(account, bik)) ||
    (corr_account && bik && corrAccountProblem(corr_account, bik)) ||
    null
  );
}
