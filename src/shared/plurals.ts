// Russian nouns after a count, wherever the shop writes one (the storefront, the back office, the
// letters, the invoice's PDF and the server's messages). The rule is Intl's, the words are the caller's.

const rules = new Intl.PluralRules('ru');

/** Russian has three forms for whole numbers: 1 (21, 101…), 2–4 (22…), 5–20 (0, 25, 111…). */
export interface PluralForms {
  one: string;
  few: string;
  many: string;
}

/**
 * The form of a noun that goes with a count: 1 рубль, 2 рубля, 5 рублей. A fraction (Intl's «other»)
 * takes the form of 2: 1,5 рубля.
 */
export function pluralForm(count: number, forms: PluralForms): string {
  const rule = rules.select(count);
  return rule === 'one' ? forms.one : rule === 'many' ? forms.many : forms.few;
}

/** A counter that writes a count with its noun: countOf(forms)(21) → «21 товар». */
export const countOf = (forms: PluralForms) => (count: number) => `${count} ${pluralForm(count, forms)}`;
