// ИНН and КПП as the tax service defines them, checked the same way by the checkout, the profile
// and the server (docs/decisions.md: the old shop's 12-only rule rejected every organisation).
import { LIMITS, MESSAGES } from './api';

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
