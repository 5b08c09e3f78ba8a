import {
  OutOfStockError,
  PackagingError,
  ProductHiddenError,
  ProductNotFoundError,
  VariantProductMismatchError,
} from './domain-errors';
import type { StockedVariant } from './on-sale';
import {
  assertWithinStockShare,
  assertWithinUnprovenPool,
  mergeLines,
  priceOrder as priceOrderIn,
  type OrderPricing,
} from './order-pricing';
import { TierIndex, type TierRow } from './wholesale-price';

const OPT = 1;
const LARGE = 2;
const pricingWith = (typeId: number, tiers: TierRow[] = []): OrderPricing => ({
  types: { typeId, defaultTypeId: OPT },
  tiers: new TierIndex(tiers),
  typeNames: new Map([
    [OPT, 'Опт'],
    [LARGE, 'Крупный опт'],
  ]),
});
/** Priced in the default type without tiers, as every order was before price types. */
const priceOrder = (...args: Parameters<typeof priceOrderIn> extends [...infer Head, unknown] ? Head : never) =>
  priceOrderIn(...args, pricingWith(OPT));

const bear: StockedVariant = {
  id: 11,
  productId: 1,
  productName: 'Мишка',
  productHidden: false,
  color: 'бурый',
  size: 30,
  price: '199.90',
  typePrice: null,
  stock: 5,
  multiple: 1,
  minQuantity: 1,
};
const hare: StockedVariant = {
  id: 21,
  productId: 2,
  productName: 'Заяц',
  productHidden: false,
  color: 'белый',
  size: 25,
  price: '0.10',
  typePrice: null,
  stock: 100,
  multiple: 1,
  minQuantity: 1,
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

describe('wholesale prices', () => {
  const tier = (
    owner: { productId?: number; variantId?: number },
    priceTypeId: number,
    from: number,
    price: string,
  ) => ({
    priceTypeId,
    productId: owner.productId ?? null,
    variantId: owner.variantId ?? null,
    from,
    price,
  });

  it('prices in the company’s type where it has a price, in the default type’s elsewhere, keeping both', () => {
    const ordered = mergeLines([
      { product_id: 1, variant_id: 11, quantity: 2 },
      { product_id: 2, variant_id: 21, quantity: 1 },
    ]);
    const withLarge = new Map([
      [11, { ...bear, typePrice: '150.00' }],
      [21, hare],
    ]);
    const priced = priceOrderIn([11, 21], ordered, withLarge, pricingWith(LARGE));
    expect(priced.lines.map((line) => [line.unitPrice, line.priceTypeName, line.tierFrom])).toEqual([
      ['150.00', 'Крупный опт', null],
      ['0.10', 'Опт', null],
    ]);
    expect(priced.totalKopecks).toBe(30_010);
  });

  it('a product’s tier counts all its variants together; a variant’s own tier its line alone', () => {
    const ordered = mergeLines([
      { product_id: 1, variant_id: 11, quantity: 4 },
      { product_id: 1, variant_id: 12, quantity: 1 },
    ]);
    const roomy = new Map([
      [11, { ...bear, stock: 50 }],
      [12, { ...bigBear, stock: 50 }],
    ]);
    // From 5 pieces of the model: 180 ₽ — below the small bear's 199.90 and the big one's 349.99.
    const priced = priceOrderIn([11, 12], ordered, roomy, pricingWith(OPT, [tier({ productId: 1 }, OPT, 5, '180.00')]));
    expect(priced.lines.map((line) => [line.unitPrice, line.listPrice, line.tierFrom])).toEqual([
      ['180.00', '199.90', 5],
      ['180.00', '349.99', 5],
    ]);
    // The big bear's own tier from 5 (it has one line of 1): its own tiers apply, not the product's.
    const own = priceOrderIn(
      [11, 12],
      ordered,
      roomy,
      pricingWith(OPT, [tier({ productId: 1 }, OPT, 5, '180.00'), tier({ variantId: 12 }, OPT, 5, '300.00')]),
    );
    expect(own.lines.map((line) => line.unitPrice)).toEqual(['180.00', '349.99']);
  });

  it('refuses a count that is not a multiple of the кратность, or under the minimum, naming the rule', () => {
    const cartons = new Map([[11, { ...bear, stock: 100, multiple: 6, minQuantity: 12 }]]);
    const order = (quantity: number) => mergeLines([{ product_id: 1, variant_id: 11, quantity }]);
    expect(() => priceOrder([11], order(8), cartons)).toThrow(PackagingError);
    expect(() => priceOrder([11], order(8), cartons)).toThrow(
      '«Мишка»: товар продаётся упаковками по 6 шт.: количество должно быть кратно 6',
    );
    expect(() => priceOrder([11], order(6), cartons)).toThrow(
      '«Мишка»: минимальный заказ этого товара — 12 шт. в строке',
    );
    expect(priceOrder([11], order(18), cartons).itemsCount).toBe(18);
  });

  it('sells the whole remainder of stock below the кратность', () => {
    const remainder = new Map([[11, { ...bear, stock: 4, multiple: 6, minQuantity: 6 }]]);
    expect(priceOrder([11], mergeLines([{ product_id: 1, variant_id: 11, quantity: 4 }]), remainder).itemsCount).toBe(
      4,
    );
  });

  it('a share of the stock is capped in whole cartons', () => {
    const cartons = { ...hare, stock: 100, multiple: 6 };
    // 50 % of 100 is 50 pieces: in cartons of 6, 48.
    expect(() => assertWithinStockShare([{ variant: cartons, quantity: 48 }], 50, 'opt@shop.example')).not.toThrow();
    expect(() => assertWithinStockShare([{ variant: cartons, quantity: 54 }], 50, 'opt@shop.example')).toThrow(
      /не больше 48 шт\./,
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
