import { countOf } from '@shared/plurals';

/** 1 товар, 2 товара, 5 товаров, 21 товар. */
export const goodsCount = countOf({ one: 'товар', few: 'товара', many: 'товаров' });

/** 1 день, 2 дня, 5 дней. */
export const daysCount = countOf({ one: 'день', few: 'дня', many: 'дней' });
