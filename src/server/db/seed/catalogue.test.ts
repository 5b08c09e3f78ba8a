import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { aboutImage, seedBanners, seedCategories, seedProducts, type SeedProduct } from './catalogue';

const IMAGES_DIR = resolve(__dirname, '../../assets/images');

const allVariants = seedProducts.flatMap((p) => p.variants);
const withoutVariants = seedProducts.filter((p) => p.variants.length === 0);
const fullyOutOfStock = seedProducts.filter((p) => p.variants.length > 0 && p.variants.every((v) => v.stock === 0));

function readImage(file: string): string {
  return readFileSync(join(IMAGES_DIR, file), 'utf8');
}

describe('seed catalogue: categories', () => {
  it('has at least 6 unique Russian category names', () => {
    expect(seedCategories.length).toBeGreaterThanOrEqual(6);
    expect(new Set(seedCategories).size).toBe(seedCategories.length);
    for (const c of seedCategories) expect(c).toMatch(/^[А-ЯЁ][а-яё ]+$/);
  });

  it('every category has at least 6 products', () => {
    const small = seedCategories.filter((c) => seedProducts.filter((p) => p.category === c).length < 6);
    expect(small).toEqual([]);
  });
});

describe('seed catalogue: products', () => {
  it('has at least 64 products', () => {
    expect(seedProducts.length).toBeGreaterThanOrEqual(64);
  });

  it('articles are URL-safe and unique', () => {
    for (const p of seedProducts) expect(p.art).toMatch(/^[A-Za-z0-9-]+$/);
    expect(new Set(seedProducts.map((p) => p.art)).size).toBe(seedProducts.length);
  });

  it('names are Russian, trimmed and unique', () => {
    for (const p of seedProducts) {
      expect(p.name).toMatch(/[А-ЯЁа-яё]/);
      expect(p.name.trim()).toBe(p.name);
      expect(p.name).not.toMatch(/\s{2}/);
    }
    expect(new Set(seedProducts.map((p) => p.name)).size).toBe(seedProducts.length);
  });

  it('every product belongs to a known category', () => {
    for (const p of seedProducts) expect(seedCategories).toContain(p.category);
  });

  it('curatedRank is a permutation of 1..N', () => {
    const ranks = seedProducts.map((p) => p.curatedRank).sort((a, b) => a - b);
    expect(ranks).toEqual(seedProducts.map((_, i) => i + 1));
  });

  it('descriptions are filled in; bigDescription has 4-8 lines', () => {
    for (const p of seedProducts) {
      expect(p.description.length).toBeGreaterThan(10);
      expect(p.description).toMatch(/[а-яё]/);
      expect(p.bigDescription).toContain('\n');
      const lines = p.bigDescription.split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(4);
      expect(lines.length).toBeLessThanOrEqual(8);
      for (const line of lines) expect(line.trim().length).toBeGreaterThan(0);
    }
  });

  it('image name is the article with .svg', () => {
    for (const p of seedProducts) expect(p.image).toBe(`${p.art}.svg`);
  });
});

describe('seed catalogue: variants', () => {
  it('each product has at most 6 variants with unique (color, size)', () => {
    for (const p of seedProducts) {
      expect(p.variants.length).toBeLessThanOrEqual(6);
      const keys = p.variants.map((v) => `${v.color}|${v.size}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('colour is a Russian word, size an integer in cm', () => {
    for (const v of allVariants) {
      expect(v.color).toMatch(/^[а-яё]+$/);
      expect(Number.isInteger(v.size)).toBe(true);
      expect(v.size).toBeGreaterThan(0);
      expect(v.size).toBeLessThanOrEqual(200);
    }
  });

  it('prices are decimal strings with kopecks and realistic', () => {
    for (const v of allVariants) {
      expect(v.price).toMatch(/^\d+\.\d{2}$/);
      expect(Number(v.price)).toBeGreaterThanOrEqual(100);
      expect(Number(v.price)).toBeLessThanOrEqual(10000);
    }
    expect(allVariants.some((v) => !v.price.endsWith('.00'))).toBe(true);
  });

  it('a bigger size of the same colour costs more', () => {
    const check = (p: SeedProduct): void => {
      const byColor = new Map<string, { size: number; price: number }[]>();
      for (const v of p.variants) {
        const list = byColor.get(v.color) ?? [];
        list.push({ size: v.size, price: Number(v.price) });
        byColor.set(v.color, list);
      }
      for (const list of byColor.values()) {
        list.sort((a, b) => a.size - b.size);
        list.slice(1).forEach((cur, i) => expect(cur.price).toBeGreaterThan(list[i]?.price ?? Infinity));
      }
    };
    seedProducts.forEach(check);
  });

  it('stock is a non-negative integer', () => {
    for (const v of allVariants) {
      expect(Number.isInteger(v.stock)).toBe(true);
      expect(v.stock).toBeGreaterThanOrEqual(0);
      expect(v.stock).toBeLessThanOrEqual(500);
    }
  });

  it('about 10% of variants are out of stock', () => {
    const share = allVariants.filter((v) => v.stock === 0).length / allVariants.length;
    expect(share).toBeGreaterThanOrEqual(0.05);
    expect(share).toBeLessThanOrEqual(0.2);
  });

  it('exactly 3 or 4 products have no variants at all', () => {
    expect([3, 4]).toContain(withoutVariants.length);
  });

  it('at least 2 products are completely out of stock', () => {
    expect(fullyOutOfStock.length).toBeGreaterThanOrEqual(2);
  });

  it('most products have between 1 and 6 variants', () => {
    const normal = seedProducts.filter((p) => p.variants.length >= 1 && p.variants.length <= 6);
    expect(normal.length).toBe(seedProducts.length - withoutVariants.length);
  });
});

describe('seed catalogue: banners and about image', () => {
  it('has at least 3 banners with site-relative urls', () => {
    expect(seedBanners.length).toBeGreaterThanOrEqual(3);
    const arts = new Set(seedProducts.map((p) => p.art));
    for (const b of seedBanners) {
      expect(b.url).toMatch(/^\/(?!\/)/);
      expect(b.image).toMatch(/^[\w-]+\.svg$/);
      const m = /^\/product\/(.+)$/.exec(b.url);
      if (m) expect(arts.has(m[1] ?? '')).toBe(true);
    }
    expect(new Set(seedBanners.map((b) => b.image)).size).toBe(seedBanners.length);
  });

  it('about image is an svg file name', () => {
    expect(aboutImage).toBe('about.svg');
  });
});

describe('seed catalogue: image files', () => {
  const files = [...seedProducts.map((p) => p.image), ...seedBanners.map((b) => b.image), aboutImage];

  it.each(files)('%s exists and is a self-contained svg', (file) => {
    expect(existsSync(join(IMAGES_DIR, file))).toBe(true);
    const svg = readImage(file);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('viewBox=');
    expect(svg).toMatch(/<title>[^<]+<\/title>/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/<script|<foreignObject|href=|@font-face|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
  });

  it('product images are 600x600 and smaller than 6 KB', () => {
    for (const p of seedProducts) {
      const svg = readImage(p.image);
      expect(svg).toContain('width="600" height="600"');
      expect(statSync(join(IMAGES_DIR, p.image)).size).toBeLessThan(6 * 1024);
    }
  });

  it('product image titles carry the product name', () => {
    const escape = (s: string): string =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
    for (const p of seedProducts) expect(readImage(p.image)).toContain(`<title>${escape(p.name)}</title>`);
  });
});
