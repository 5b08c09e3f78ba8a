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

  test.each([null, '', 'BEAR-01', 'BEAR-01:101', 'BEAR-01:x:1', 'BEAR-01:101:0', 'BEAR-01:101:-1', 'BEAR-01:101:1.5', ':101:1', 'BEAR-01:101:1,'])(
    'refuses %p',
    (raw) => {
      expect(parseCheckoutItems(raw)).toBeNull();
    },
  );
});
