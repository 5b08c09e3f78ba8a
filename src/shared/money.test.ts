import { formatRubles } from './money';

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
