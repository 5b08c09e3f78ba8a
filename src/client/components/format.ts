const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** 12 345,5 → "12 345,5"; the ₽ sign is added where SPEC puts it. */
export const formatPrice = (value: number) => rubles.format(value);

const plural = new Intl.PluralRules('ru');

/** Russian has three forms for whole numbers: 1 (21, 101…), 2–4 (22…), 5–20 (0, 25, 111…). */
interface PluralForms {
  one: string;
  few: string;
  many: string;
}

/** A count with its noun in the form Intl.PluralRules('ru') picks. */
export const countOf = (forms: PluralForms) => (count: number) => {
  const rule = plural.select(count);
  return `${count} ${rule === 'one' ? forms.one : rule === 'many' ? forms.many : forms.few}`;
};

/** 1 товар, 2 товара, 5 товаров, 21 товар. */
export const goodsCount = countOf({ one: 'товар', few: 'товара', many: 'товаров' });
