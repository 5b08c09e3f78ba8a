import { cartCheckoutPath, CHECKOUT_ADDRESS_MAX, checkoutPath, type CheckoutItem } from '@shared/paths';
import { parseCheckoutItems } from './parseItems';

describe('parseCheckoutItems (SPEC §2: items=art:variant_id:count,...)', () => {
  test('reads a comma-separated list', () => {
    expect(parseCheckoutItems('BEAR-01:101:2,HARE-02:202:1')).toEqual([
      { art: 'BEAR-01', variantId: 101, count: 2 },
      { art: 'HARE-02', variantId: 202, count: 1 },
    ]);
  });

  test('an article may itself contain colons: the last two parts are the numbers', () => {
    expect(parseCheckoutItems('A:B:7:3')).toEqual([{ art: 'A:B', variantId: 7, count: 3 }]);
  });

  test('reads back what checkoutPath wrote, whatever the article holds', () => {
    const items: CheckoutItem[] = [
      { art: 'MO-1001', variantId: 12, count: 4 },
      { art: 'A,B', variantId: 7, count: 1 },
      { art: 'X:Y', variantId: 8, count: 2 },
      { art: '50% off', variantId: 9, count: 3 },
    ];
    const path = checkoutPath(items);
    expect(path.startsWith('/checkout?items=MO-1001:12:4,')).toBe(true);
    expect(parseCheckoutItems(new URL(path, 'http://shop.test').searchParams.get('items'))).toEqual(items);
  });

  test.each([
    null,
    '',
    'BEAR-01',
    'BEAR-01%:101:1',
    'BEAR-01:101',
    'BEAR-01:x:1',
    'BEAR-01:101:0',
    'BEAR-01:101:-1',
    'BEAR-01:101:1.5',
    ':101:1',
    'BEAR-01:101:1,',
  ])('refuses %p', (raw) => {
    expect(parseCheckoutItems(raw)).toBeNull();
  });
});

describe('cartCheckoutPath', () => {
  const lines = (count: number): CheckoutItem[] =>
    Array.from({ length: count }, (_, index) => ({ art: `MO-${1000 + index}`, variantId: 10_000 + index, count: 1 }));

  test('SPEC’s items= while the address is under 4 KB; the server cart’s /checkout beyond', () => {
    expect(cartCheckoutPath(lines(2))).toBe('/checkout?items=MO-1000:10000:1,MO-1001:10001:1');
    const longest = Array.from({ length: 300 }, (_, count) => checkoutPath(lines(count))).findLast(
      (path) => path.length < CHECKOUT_ADDRESS_MAX,
    )!;
    const fits = longest.split(',').length;
    expect(cartCheckoutPath(lines(fits))).toBe(longest);
    expect(cartCheckoutPath(lines(fits + 1))).toBe('/checkout');
    // 5 000 lines, which a cart may hold: never an address of 100 KB.
    expect(cartCheckoutPath(lines(5000))).toBe('/checkout');
  });
});
