import type { ProductPage } from '../../shared/api';
import { productHead, shellDescription, withHead } from './page-head';

const NO_TIERS = { tiers: [], tiers_scope: 'variant' as const, rrp: null };
const NO_CARD = { barcode: null, marked: false, package: null, weight_g: null };

const bear: ProductPage = {
  id: 1,
  art: 'MO-1001',
  name: 'Мишка Тедди',
  description: 'Мягкий медведь из плюша. '.repeat(20),
  big_description: null,
  image: 'bear.svg',
  multiple: 1,
  min_quantity: 1,
  variants: [
    { ...NO_TIERS, ...NO_CARD, id: 10, color: 'коричневый', size: 90, price: 1250.5, stock: 3, unproven_held: 0 },
    { ...NO_TIERS, ...NO_CARD, id: 11, color: 'белый', size: 30, price: 350, stock: 0, unproven_held: 0 },
  ],
  photos: [{ color: null, images: ['bear.svg'] }],
  brand: null,
  material: null,
  filler: null,
  age_from: null,
  country_of_origin: null,
  tnved: null,
  conformity_document: null,
};

describe('productHead', () => {
  it('cuts a long description at a word, to about 160 characters, and adds the article and the lowest price', () => {
    const { description } = productHead(bear, 'https://shop.example');
    expect(description!.length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/^Мягкий медведь из плюша\. .*… Артикул MO-1001\. Оптом от 350,00\u00a0₽\.$/);
  });

  it('without a description says the name; without variants, no price and no offers', () => {
    const head = productHead({ ...bear, description: '  ', variants: [] }, 'https://shop.example');
    expect(head.description).toBe('Мишка Тедди. Артикул MO-1001.');
    expect(head.structuredData).not.toHaveProperty('offers');
  });

  it('names the product’s brand, its own photos and each variant’s GTIN; the shop when it has no brand', () => {
    const branded: ProductPage = {
      ...bear,
      brand: 'Тедди-Тойс',
      photos: [
        { color: null, images: ['u-1.webp', 'u-2.webp'] },
        { color: 'белый', images: ['u-3.webp'] },
      ],
      variants: [{ ...bear.variants[0]!, barcode: '4601234567893' }, bear.variants[1]!],
    };
    const data = productHead(branded, 'https://shop.example').structuredData as {
      brand: { name: string };
      image: string[];
      offers: { offers: { gtin?: string }[] };
    };
    expect(data.brand.name).toBe('Тедди-Тойс');
    expect(data.image).toEqual([
      'https://shop.example/api/v1/image/u-1.webp',
      'https://shop.example/api/v1/image/u-2.webp',
    ]);
    expect(data.offers.offers.map((offer) => offer.gtin)).toEqual(['4601234567893', undefined]);
    expect((productHead(bear, 'https://shop.example').structuredData as { brand: { name: string } }).brand.name).toBe(
      'Мягкий Опт',
    );
  });
});

describe('withHead', () => {
  const shell =
    '<html><head><meta charset="utf-8"><meta\n  name="description"\n  content="Опт &amp; розница"\n/><title>Shop</title></head><body></body></html>';

  it('reads the shell’s own description', () => {
    expect(shellDescription(shell)).toBe('Опт & розница');
  });

  it('keeps the shell’s description when the head has none, and puts the rest at the end of the head', () => {
    const page = withHead(shell, { title: 'Заказ $& принят' }, '<link rel="preload">');
    expect(page).toBe(
      '<html><head><meta charset="utf-8"><meta\n  name="description"\n  content="Опт &amp; розница"\n/><title>Заказ $&amp; принят</title><link rel="preload"></head><body></body></html>',
    );
  });
});
