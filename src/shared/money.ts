// Money, wherever the shop handles it (the storefront, the back office, the letters, the invoice's
// PDF, the spreadsheets and the database): sums are done in whole kopecks, so that no binary-float
// rounding can creep into a total, and shown to a person one way.

// Not `style: 'currency'`: ICU versions differ in the sign and the space they put after the digits,
// and the Russian rule is one: two kopeck digits always, a non-breaking space before «₽».
const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1599.5 → «1 599,50 ₽» (non-breaking spaces between the groups and before the sign). */
export const formatRubles = (value: number) => `${rubles.format(value)}\u00a0₽`;

/** 159950 kopecks → «1 599,50 ₽». */
export const formatKopecks = (kopecks: number) => formatRubles(kopecks / 100);

/** A price in rubles as JSON carries it (at most two decimals) in whole kopecks: 0.29 → 29. */
export const rublesToKopecks = (rubles: number) => Math.round(rubles * 100);

export const kopecksToRubles = (kopecks: number) => kopecks / 100;

/** Up to 999 999 999 999 rubles (numeric(14,2), the widest money column, holds twelve digits of them). */
const DECIMAL_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/**
 * Kopecks in a decimal amount as the database gives it ("1500.00", "0.1"), read digit by digit:
 * `Number("0.29") * 100` is 28.999…, so the string is never multiplied as a float. Anything else
 * (a sign, a third decimal, an exponent) is a RangeError, never a wrong sum.
 */
export function decimalToKopecks(amount: string): number {
  const match = DECIMAL_AMOUNT.exec(amount);
  if (!match) throw new RangeError(`Не сумма в рублях: ${amount}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Whole kopecks as numeric(12,2) takes them: 159950 → "1599.50". */
export const kopecksToDecimal = (kopecks: number) => (kopecks / 100).toFixed(2);

/** A price in rubles, already checked to be whole kopecks, as numeric(12,2) takes it. */
export const rublesToDecimal = (rubles: number) => rubles.toFixed(2);
