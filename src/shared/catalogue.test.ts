import { bannerUrlProblem, priceProblem } from './catalogue';

describe('priceProblem', () => {
  it('takes positive prices in whole kopecks, however binary floats store them', () => {
    for (const price of [0.01, 0.1, 19.99, 1499.9, 100, 1099.99, 9_999_999_999.99])
      expect(priceProblem(price)).toBeNull();
  });

  it('refuses zero, negatives, non-numbers and fractions of a kopeck', () => {
    expect(priceProblem(0)).toBe('Цена должна быть больше нуля');
    expect(priceProblem(-5)).toBe('Цена должна быть больше нуля');
    expect(priceProblem(Number.NaN)).toBe('Цена должна быть больше нуля');
    for (const price of [10.005, 0.001, 0.1 + 0.2, 1.999]) {
      expect(priceProblem(price)).toMatch(/не больше двух знаков после запятой/);
    }
  });
});

describe('bannerUrlProblem', () => {
  it('takes a path on the site and http(s) addresses', () => {
    for (const url of ['/', '/catalog', '/product/MO-1001', 'https://example.com/a?b=c', 'http://пример.рф']) {
      expect(bannerUrlProblem(url)).toBeNull();
    }
  });

  it('refuses other schemes, protocol-relative and relative links, and control characters', () => {
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:,x',
      'vbscript:x',
      '//evil.example',
      '/\\evil',
      'catalog',
      'mailto:a@b.ru',
      '/a b',
      '/a\tb',
      'https://',
    ]) {
      expect([url, bannerUrlProblem(url)]).toEqual([url, expect.stringMatching(/^Ссылка баннера/)]);
    }
  });
});
