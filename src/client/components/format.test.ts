import { formatPrice, goodsCount } from './format';

describe('formatPrice (ru-RU)', () => {
  test.each([
    [990, '990'],
    [12345, '12\u00a0345'],
    [1234.5, '1\u00a0234,5'],
    [0.1 + 0.2, '0,3'],
  ])('%p → %p', (value, text) => {
    expect(formatPrice(value)).toBe(text);
  });
});

describe('goodsCount (Russian plural forms)', () => {
  test.each([
    [0, '0 товаров'],
    [1, '1 товар'],
    [2, '2 товара'],
    [4, '4 товара'],
    [5, '5 товаров'],
    [11, '11 товаров'],
    [12, '12 товаров'],
    [14, '14 товаров'],
    [21, '21 товар'],
    [22, '22 товара'],
    [25, '25 товаров'],
    [101, '101 товар'],
    [111, '111 товаров'],
  ])('%i → %s', (count, text) => {
    expect(goodsCount(count)).toBe(text);
  });
});
