// A module of its own: the home page's cards need the words without format.ts's plurals.
/** What stands where a price is when the shop shows prices to signed-in buyers only. */
export const PRICE_AFTER_SIGN_IN = 'Цена после входа';
