import {
  catalogueFiltersFrom,
  catalogueFiltersProblem,
  variantMatches,
  withCatalogueFilters,
} from './catalogueFilters';

describe('catalogueFiltersFrom', () => {
  it('reads every filter of a /catalog address, with only the keys it sets', () => {
    const query = new URLSearchParams(
      'category=Лисы&page=2&sort=price_desc&color=синий&size_min=20&size_max=50&price_min=99.9&price_max=500&in_stock=true',
    );
    expect(catalogueFiltersFrom(query)).toEqual({
      sort: 'price_desc',
      color: 'синий',
      size_min: 20,
      size_max: 50,
      price_min: 99.9,
      price_max: 500,
      in_stock: true,
    });
    expect(Object.keys(catalogueFiltersFrom(new URLSearchParams('category=Лисы&page=3')))).toEqual([]);
  });

  it('leaves out what the API would refuse, and a range that ends before it starts', () => {
    const query = new URLSearchParams(
      'sort=cheap&color=&size_min=2.5&size_max=-1&price_min=600&price_max=500&in_stock=1&category=x',
    );
    expect(catalogueFiltersFrom(query)).toEqual({});
    expect(catalogueFiltersFrom(new URLSearchParams('size_max=10001&price_min=1.005'))).toEqual({});
    expect(catalogueFiltersFrom(new URLSearchParams('size_min=30&size_max=30'))).toEqual({
      size_min: 30,
      size_max: 30,
    });
  });
});

it('withCatalogueFilters replaces the filters and keeps the category and page', () => {
  const query = new URLSearchParams('category=Лисы&page=2&color=синий&in_stock=true');
  const next = withCatalogueFilters(query, { sort: 'name', color: undefined, in_stock: false, price_max: 300 });
  expect(Object.fromEntries(next)).toEqual({ category: 'Лисы', page: '2', sort: 'name', price_max: '300' });
  expect(query.get('color')).toBe('синий');
});

it('catalogueFiltersProblem names the range that ends before it starts', () => {
  expect(catalogueFiltersProblem({ size_min: 5, size_max: 4 })).toMatch(/Размер от/);
  expect(catalogueFiltersProblem({ price_min: 5, price_max: 4 })).toMatch(/Цена от/);
  expect(catalogueFiltersProblem({ size_min: 4, size_max: 4, price_min: 0 })).toBeNull();
});

it('variantMatches takes a variant only when it passes every filter', () => {
  const variant = {
    id: 1,
    color: 'синий',
    size: 30,
    price: 250.5,
    tiers: [],
    tiers_scope: 'variant' as const,
    rrp: null,
    stock: 0,
    unproven_held: 0,
  };
  expect(variantMatches(variant, {})).toBe(true);
  expect(variantMatches(variant, { color: 'синий', size_min: 30, size_max: 30, price_max: 250.5 })).toBe(true);
  expect(variantMatches(variant, { color: 'красный' })).toBe(false);
  expect(variantMatches(variant, { size_min: 31 })).toBe(false);
  expect(variantMatches(variant, { price_min: 251 })).toBe(false);
  expect(variantMatches(variant, { in_stock: true })).toBe(false);
  // A visitor's hidden price: the server listed the product by the price it knows.
  expect(variantMatches({ ...variant, price: null }, { price_min: 251 })).toBe(true);
});
