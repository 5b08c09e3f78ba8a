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
