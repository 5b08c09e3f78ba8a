// The sum in words that a Russian invoice prints under the total («Одна тысяча пятьсот рублей
// 00 копеек»). Intl has no spelled-out numbers, so the words are ours; the plural forms are Intl's.

import { pluralForm, type PluralForms } from '../../shared/plurals';

const RUBLES: PluralForms = { one: 'рубль', few: 'рубля', many: 'рублей' };
const KOPECKS: PluralForms = { one: 'копейка', few: 'копейки', many: 'копеек' };

type Gender = 'masculine' | 'feminine';

/** Groups of three digits from the lowest: their noun and gender (тысяча is feminine: «одна тысяча»). */
const SCALES: { forms: PluralForms | null; gender: Gender }[] = [
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
