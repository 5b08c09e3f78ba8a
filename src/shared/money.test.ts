import {
  decimalToKopecks,
  formatKopecks,
  formatRubles,
  kopecksToDecimal,
  kopecksToRubles,
  rublesToDecimal,
  rublesToKopecks,
} from './money';

describe('formatRubles', () => {
  test.each([
    [990, '990,00\u00a0₽'],
    [1599.5, '1\u00a0599,50\u00a0₽'],
    [274612.5, '274\u00a0612,50\u00a0₽'],
    [0.1 + 0.2, '0,30\u00a0₽'],
    [0, '0,00\u00a0₽'],
    [9_999_999_999.99, '9\u00a0999\u00a0999\u00a0999,99\u00a0₽'],
  ])('%p → %p', (value, text) => {
    expect(formatRubles(value)).toBe(text);
  });
});

describe('formatKopecks', () => {
  test.each([
    [99_000, '990,00\u00a0₽'],
    [159_950, '1\u00a0599,50\u00a0₽'],
    [29, '0,29\u00a0₽'],
    [0, '0,00\u00a0₽'],
  ])('%p kopecks → %p', (kopecks, text) => {
    expect(formatKopecks(kopecks)).toBe(text);
  });
});

describe('rublesToKopecks', () => {
  test.each([
    [0.29, 29],
    [4.35, 435],
    [1099.99, 109_999],
    [1599.5, 159_950],
    [9_999_999_999.99, 999_999_999_999],
  ])('%p ₽ is %p kopecks, though the float is not exact', (rubles, kopecks) => {
    expect(rublesToKopecks(rubles)).toBe(kopecks);
  });
});

describe('decimalToKopecks', () => {
  test.each([
    ['0', 0],
    ['0.01', 1],
    ['0.1', 10],
    ['0.29', 29],
    ['0.99', 99],
    ['1.15', 115],
    ['1500.00', 150_000],
    ['4.35', 435],
    ['9999999999.99', 999_999_999_999],
  ])('%s ₽ is %d kopecks, exactly', (amount, kopecks) => expect(decimalToKopecks(amount)).toBe(kopecks));

  test.each(['', '-1', '1.005', '1,50', '1e3', ' 1', '0x10', '1.'])('%j is not an amount', (amount) => {
    expect(() => decimalToKopecks(amount)).toThrow(RangeError);
  });
});

describe('the database side', () => {
  test('kopecks and rubles as numeric(12,2) takes them', () => {
    expect(kopecksToDecimal(159_950)).toBe('1599.50');
    expect(kopecksToDecimal(29)).toBe('0.29');
    expect(rublesToDecimal(1599.5)).toBe('1599.50');
    expect(rublesToDecimal(0.29)).toBe('0.29');
    expect(kopecksToRubles(159_950)).toBe(1599.5);
  });
});
