import { countOf, pluralForm } from './plurals';

const RUBLES = { one: 'рубль', few: 'рубля', many: 'рублей' };

describe('pluralForm', () => {
  test.each([
    [0, 'рублей'],
    [1, 'рубль'],
    [2, 'рубля'],
    [4, 'рубля'],
    [5, 'рублей'],
    [11, 'рублей'],
    [14, 'рублей'],
    [21, 'рубль'],
    [22, 'рубля'],
    [25, 'рублей'],
    [101, 'рубль'],
    [111, 'рублей'],
    [1_000_001, 'рубль'],
    [1.5, 'рубля'],
  ])('%p %s', (count, form) => {
    expect(pluralForm(count, RUBLES)).toBe(form);
  });
});

describe('countOf', () => {
  test('writes the count before its noun', () => {
    const linesCount = countOf({ one: 'строка', few: 'строки', many: 'строк' });
    expect([1, 3, 5, 21].map(linesCount)).toEqual(['1 строка', '3 строки', '5 строк', '21 строка']);
  });
});
