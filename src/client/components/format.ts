import { countOf } from '@shared/plurals';

/** 1 товар, 2 товара, 5 товаров, 21 товар. */
export const goodsCount = countOf({ one: 'товар', few: 'товара', many: 'товаров' });

/** What stands where a price is when the shop shows prices to signed-in buyers only. */
export const PRICE_AFTER_SIGN_IN = 'Цена после входа';
