import { countOf } from '@shared/plurals';

/** 1 товар, 2 товара, 5 товаров, 21 товар. */
export const goodsCount = countOf({ one: 'товар', few: 'товара', many: 'товаров' });
