// The sum in words that a Russian invoice prints under the total («Одна тысяча пятьсот рублей
// 00 копеек»). Intl has no spelled-out numbers, so the words are ours; the plural forms are Intl's.

const PLURAL = new Intl.PluralRules('ru');

type Forms = Record<'one' | 'few' | 'many', string>;

/** The form of a noun that goes with a whole count (1 рубль, 2 рубля, 5 рублей). */
export function pluralForm(count: number, forms: Forms): string {
  const category = PLURAL.select(count);
  return category === 'one' || category === 'few' ? forms[category] : forms.many;
}

const RUBLES: Forms = { one: 'рубль', few: 'рубля', many: 'рублей' };
const KOPECKS: Forms = { one: 'копейка', few: 'копейки', many: 'копеек' };

type Gender = 'masculine' | 'feminine';

/** Groups of three digits from the lowest: their noun and gender (тысяча is feminine: «одна тысяча»). */
const SCALES: { forms: Forms | null; gender: Gender }[] = [
  { forms: null, gender: 'masculine' },
  { forms: { one: 'тысяча', few: 'тысячи', many: 'тысяч' }, gender: 'feminine' },
  { forms: { one: 'миллион', few: 'миллиона', many: 'миллионов' }, gender: 'masculine' },
  { forms: { one: 'миллиард', few: 'миллиарда', many: 'миллиардов' }, gender: 'masculine' },
];

const UNITS = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const FEMININE_UNITS: Record<number, string> = { 1: 'одна', 2: 'две' };
const TEENS = [
  'десять',
  'одиннадцать',
  'двенадцать',
  'тринадцать',
  'четырнадцать',
  'пятнадцать',
  'шестнадцать',
  'семнадцать',
  'восемнадцать',
  'девятнадцать',
];
const TENS = [
  '',
  '',
  'двадцать',
  'тридцать',
  'сорок',
  'пятьдесят',
  'шестьдесят',
  'семьдесят',
  'восемьдесят',
  'девяносто',
];
const HUNDREDS = [
  '',
  'сто',
  'двести',
  'триста',
  'четыреста',
  'пятьсот',
  'шестьсот',
  'семьсот',
  'восемьсот',
  'девятьсот',
];

/** 1–999 in words. */
function tripleInWords(triple: number, gender: Gender): string[] {
  const hundreds = Math.floor(triple / 100);
  const tens = Math.floor(triple / 10) % 10;
  const units = triple % 10;
  if (tens === 1) return [HUNDREDS[hundreds]!, TEENS[units]!];
  const unitWord = (gender === 'feminine' && FEMININE_UNITS[units]) || UNITS[units]!;
  return [HUNDREDS[hundreds]!, TENS[tens]!, unitWord];
}

/** A whole number of roubles in words, lower case («одна тысяча пятьсот»). */
function wholeInWords(whole: number): string {
  if (whole === 0) return 'ноль';
  const words: string[] = [];
  SCALES.forEach(({ forms, gender }, scale) => {
    const triple = Math.floor(whole / 1000 ** scale) % 1000;
    if (triple === 0) return;
    const group = tripleInWords(triple, gender);
    if (forms) group.push(pluralForm(triple, forms));
    words.unshift(...group);
  });
  return words.filter(Boolean).join(' ');
}

/** Up to 999 999 999 999 roubles (numeric(12,2) holds at most ten digits of them). */
const AMOUNT_PATTERN = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/**
 * Kopecks in a decimal amount as the database gives it ("1500.00", "0.1"), read digit by digit:
 * `Number("0.29") * 100` is 28.999…, so the string is never multiplied as a float.
 */
export function decimalToKopecks(amount: string): number {
  const match = AMOUNT_PATTERN.exec(amount);
  if (!match) throw new RangeError(`Не сумма в рублях: ${amount}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** «Одна тысяча пятьсот рублей 00 копеек» for 150000 kopecks. */
export function amountInWords(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks) || kopecks < 0 || kopecks >= 1e14) {
    throw new RangeError(`Сумма вне пределов счёта: ${kopecks} коп.`);
  }
  const rubles = Math.floor(kopecks / 100);
  const cents = kopecks % 100;
  const words = `${wholeInWords(rubles)} ${pluralForm(rubles, RUBLES)} ${String(cents).padStart(2, '0')} ${pluralForm(cents, KOPECKS)}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
