import { lineLimitNote, maxPiecesForLine, maxPiecesPerOrder, unprovenPoolLeft, unprovenPoolSize } from './order-limits';

describe('maxPiecesPerOrder', () => {
  it.each([
    [10, 50, 5],
    [11, 50, 5],
    [3, 50, 1],
    [1, 50, 1],
    [7, 100, 7],
    [1000, 1, 10],
    [99, 1, 1],
  ])('of a stock of %i at %i %% → %i', (stock, percent, max) => {
    expect(maxPiecesPerOrder(stock, percent)).toBe(max);
  });
});

describe('the unproven buyers’ pool', () => {
  it.each([
    // free stock, held by the unproven already, percent → the pool, what is left of it
    [100, 0, 50, 50, 50],
    [50, 50, 50, 50, 0],
    [10, 5, 50, 7, 2],
    [1, 0, 50, 1, 1],
    [0, 1, 50, 1, 0],
    [40, 0, 100, 40, 40],
  ])('of %i free and %i held at %i %% → %i, %i left', (stock, held, percent, pool, left) => {
    expect(unprovenPoolSize(stock, held, percent)).toBe(pool);
    expect(unprovenPoolLeft(stock, held, percent)).toBe(left);
  });
});

describe('what one order line may take (said where the quantity is typed)', () => {
  const unproven = { line_share_percent: 50, unproven_pool_percent: 50 };
  const proven = { line_share_percent: null, unproven_pool_percent: null };

  it('is the stock for a proven buyer or a visitor', () => {
    expect(maxPiecesForLine({ stock: 50, unproven_held: 40 }, proven)).toBeNull();
    expect(maxPiecesForLine({ stock: 50, unproven_held: 40 }, null)).toBeNull();
    expect(lineLimitNote(50, { stock: 50, unproven_held: 40 }, proven)).toBeNull();
  });

  it('is the smaller of the line’s share and what is left of the pool', () => {
    // Nothing held: the line's half of 50.
    expect(maxPiecesForLine({ stock: 50, unproven_held: 0 }, unproven)).toBe(25);
    // 30 free + 30 held: a pool of 30, all of it held.
    expect(maxPiecesForLine({ stock: 30, unproven_held: 30 }, unproven)).toBe(0);
    // 80 free + 20 held: a pool of 50 with 30 left, below the line's share of 40.
    expect(maxPiecesForLine({ stock: 80, unproven_held: 20 }, unproven)).toBe(30);
    expect(maxPiecesForLine({ stock: 1, unproven_held: 0 }, unproven)).toBeNull();
  });

  it('says the limit for a quantity above it, nothing within it or beyond the stock', () => {
    expect(lineLimitNote(26, { stock: 50, unproven_held: 0 }, unproven)).toBe(
      'Не больше 25 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру',
    );
    expect(lineLimitNote(31, { stock: 80, unproven_held: 20 }, unproven)).toMatch(/^Не больше 30 шт\. /);
    expect(lineLimitNote(1, { stock: 30, unproven_held: 30 }, unproven)).toBe(
      'Пока у вас нет оплаченных заказов, этот вариант сейчас заказать нельзя: его остаток ждёт покупателей с оплаченными заказами, напишите менеджеру',
    );
    expect(lineLimitNote(25, { stock: 50, unproven_held: 0 }, unproven)).toBeNull();
    expect(lineLimitNote(60, { stock: 50, unproven_held: 0 }, unproven)).toBeNull();
  });

  it('says the limit in whole cartons of a product sold by them', () => {
    // A share of 25 pieces holds four cartons of 6: 24.
    expect(lineLimitNote(30, { stock: 50, unproven_held: 0 }, unproven, 6)).toMatch(/^Не больше 24 шт\. /);
    expect(lineLimitNote(24, { stock: 50, unproven_held: 0 }, unproven, 6)).toBeNull();
  });
});
