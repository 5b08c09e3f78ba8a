const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** 12 345,5 → "12 345,5"; the ₽ sign is added where SPEC puts it. */
export const formatPrice = (value: number) => rubles.format(value);

const plural = new Intl.PluralRules('ru');
const goodsForms: Record<Intl.LDMLPluralRule, string> = {
  zero: 'товаров',
  one: 'товар',
  two: 'товара',
  few: 'товара',
  many: 'товаров',
  other: 'товара',
};

/** 1 товар, 2 товара, 5 товаров, 21 товар (Intl.PluralRules('ru') picks the form). */
export const goodsCount = (count: number) => `${count} ${goodsForms[plural.select(count)]}`;
