import {
  OutOfStockError,
  ProductHiddenError,
  ProductNotFoundError,
  VariantProductMismatchError,
} from './domain-errors';
import type { StockedVariant } from './on-sale';
import { assertWithinUnprovenPool, mergeLines, priceOrder } from './order-pricing';

const bear: StockedVariant = {
  id: 11,
  productId: 1,
  productName: 'Мишка',
  productHidden: false,
  color: 'бурый',
  size: 30,
  price: '199.90',
  stock: 5,
};
const hare: StockedVariant = {
  id: 21,
  productId: 2,
  productName: 'Заяц',
  productHidden: false,
  color: 'белый',
  size: 25,
  price: '0.10',
  stock: 100,
};
const bigBear: StockedVariant = { ...bear, id: 12, size: 50, price: '349.99', stock: 1 };
const stocked = new Map([bear, hare, bigBear].map((variant) => [variant.id, variant]));

describe('mergeLines', () => {
  it('adds up a variant listed twice', () => {
    const merged = mergeLines([
      { product_id: 1, variant_id: 11, quantity: 2 },
      { product_id: 2, variant_id: 21, quantity: 1 },
      { product_id: 1, variant_id: 11, quantity: 3 },
    ]);
    expect([...merged]).toEqual([
      [11, { productId: 1, quantity: 5 }],
      [21, { productId: 2, quantity: 1 }],
    ]);
  });

  it('refuses one variant named under two products', () => {
    expect(() =>
      mergeLines([
        { product_id: 1, variant_id: 11, quantity: 1 },
        { product_id: 2, variant_id: 11, quantity: 1 },
      ]),
    ).toThrow(new VariantProductMismatchError(11));
  });
});

describe('priceOrder', () => {
  it('prices in whole kopecks from the stocked prices and counts units per product', () => {
    const ordered = mergeLines([
      { product_id: 2, variant_id: 21, quantity: 3 },
      { product_id: 1, variant_id: 12, quantity: 1 },
      { product_id: 1, variant_id: 11, quantity: 5 },
    ]);
    const priced = priceOrder([11, 12, 21], ordered, stocked);
    // 5 × 199.90 + 349.99 + 3 × 0.10: a float sum would give 1349.7900000000002.
    expect(priced.totalKopecks).toBe(134_979);
    expect(priced.itemsCount).toBe(9);
    expect(priced.lines.map((line) => [line.variant.id, line.quantity])).toEqual([
      [11, 5],
      [12, 1],
      [21, 3],
    ]);
    expect(priced.unitsByProduct).toEqual([
      [1, 6],
      [2, 3],
    ]);
  });

  it('refuses more than the stock, naming the product, its variant and both quantities', () => {
    const ordered = mergeLines([{ product_id: 1, variant_id: 12, quantity: 2 }]);
    expect(() => priceOrder([12], ordered, stocked)).toThrow(OutOfStockError);
    expect(() => priceOrder([12], ordered, stocked)).toThrow(
      'Недостаточно товара «Мишка» (бурый, 50 см): в наличии 1 шт., заказано 2 шт.',
    );
  });

  it('refuses a product taken off sale, without naming it, even with stock left', () => {
    const hidden = new Map([[21, { ...hare, productHidden: true }]]);
    expect(() => priceOrder([21], mergeLines([{ product_id: 2, variant_id: 21, quantity: 1 }]), hidden)).toThrow(
      new ProductHiddenError(),
    );
  });

  it('takes exactly the whole stock', () => {
    const ordered = mergeLines([{ product_id: 1, variant_id: 11, quantity: 5 }]);
    expect(priceOrder([11], ordered, stocked).itemsCount).toBe(5);
  });

  it('refuses a variant that does not exist or belongs to another product', () => {
    expect(() => priceOrder([99], mergeLines([{ product_id: 1, variant_id: 99, quantity: 1 }]), stocked)).toThrow(
      new ProductNotFoundError(99, 1),
    );
    expect(() => priceOrder([21], mergeLines([{ product_id: 1, variant_id: 21, quantity: 1 }]), stocked)).toThrow(
      'Не удалось найти вариант с id=21 для продукта 1',
    );
  });
});

describe('the unproven buyers’ pool', () => {
  const line = (quantity: number) => [{ variant: hare, quantity }];
  it('lets a line fill what is left of the pool and no more, naming what is left', () => {
    const held = new Map([[hare.id, 30]]);
    // 100 free + 30 held: a pool of 65, 35 of it left.
    expect(() => assertWithinUnprovenPool(line(35), held, 50, 'opt@shop.example')).not.toThrow();
    expect(() => assertWithinUnprovenPool(line(36), held, 50, 'opt@shop.example')).toThrow(
      'Пока у вас нет оплаченных заказов, сейчас можно заказать не больше 35 шт. «Заяц» (белый, 25 см)',
    );
  });

  it('a full pool refuses even one piece, with the manager’s address', () => {
    const held = new Map([[hare.id, 100]]);
    expect(() => assertWithinUnprovenPool(line(1), held, 50, 'opt@shop.example')).toThrow(
      /«Заяц» \(белый, 25 см\) сейчас заказать нельзя: .*напишите менеджеру: opt@shop\.example$/,
    );
  });
});
