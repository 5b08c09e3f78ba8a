import {
  colourArticle,
  colourSlug,
  photosOfCard,
  photosOfColour,
  uniqueName,
  variantArticle,
  type ProductCard,
} from './marketplace-card';

const variant = (color: string, size: number) => ({
  id: size,
  color,
  size,
  barcode: null,
  marked: false,
  packageLengthMm: null,
  packageWidthMm: null,
  packageHeightMm: null,
  weightG: null,
  rrp: null,
});

const card = (overrides: Partial<ProductCard> = {}): ProductCard => ({
  id: 1,
  art: 'MO-1001',
  name: 'Мишка',
  description: null,
  category: 'Мишки',
  brand: null,
  material: null,
  filler: null,
  ageFrom: null,
  countryOfOrigin: null,
  tnved: null,
  cover: 'MO-1001.svg',
  document: null,
  variants: [variant('Розовый', 25), variant('Белый', 25), variant('Белый', 40)],
  ownPhotos: [],
  colourPhotos: new Map(),
  ...overrides,
});

describe('the kit’s photo names', () => {
  it('a colour’s own photos take the colour in Latin letters; the others the product’s set', () => {
    const bear = card({ ownPhotos: ['own-1.jpg', 'own-2.jpg'], colourPhotos: new Map([['Розовый', ['pink.jpg']]]) });
    expect(photosOfColour(bear, 'Розовый')).toEqual([{ image: 'pink.jpg', file: 'MO-1001_rozovyy_1.jpg' }]);
    expect(photosOfColour(bear, 'Белый')).toEqual([
      { image: 'own-1.jpg', file: 'MO-1001_1.jpg' },
      { image: 'own-2.jpg', file: 'MO-1001_2.jpg' },
    ]);
    expect(photosOfCard(bear).map((photo) => photo.file)).toEqual([
      'MO-1001_rozovyy_1.jpg',
      'MO-1001_1.jpg',
      'MO-1001_2.jpg',
    ]);
  });

  it('a product with no photos shows its cover; without a cover, none', () => {
    expect(photosOfCard(card())).toEqual([{ image: 'MO-1001.svg', file: 'MO-1001_1.jpg' }]);
    expect(photosOfCard(card({ cover: null }))).toEqual([]);
  });

  it('colours of the same Latin slug keep their photos apart: the later takes «-2», «-3»', () => {
    const bear = card({
      variants: [
        variant('Розовый', 25),
        variant('розовый', 25),
        variant('красный/белый', 25),
        variant('красный-белый', 25),
      ],
      colourPhotos: new Map([
        ['Розовый', ['pink.jpg']],
        ['розовый', ['pink-too.jpg']],
        ['красный/белый', ['red.jpg']],
        ['красный-белый', ['red-too.jpg']],
      ]),
    });
    expect(photosOfCard(bear)).toEqual([
      { image: 'pink.jpg', file: 'MO-1001_rozovyy_1.jpg' },
      { image: 'pink-too.jpg', file: 'MO-1001_rozovyy-2_1.jpg' },
      { image: 'red.jpg', file: 'MO-1001_krasnyy-belyy_1.jpg' },
      { image: 'red-too.jpg', file: 'MO-1001_krasnyy-belyy-2_1.jpg' },
    ]);
    expect(bear.variants.map((one) => variantArticle(bear, one))).toEqual([
      'MO-1001-rozovyy-25',
      'MO-1001-rozovyy-2-25',
      'MO-1001-krasnyy-belyy-25',
      'MO-1001-krasnyy-belyy-2-25',
    ]);
    expect(colourArticle(bear, 'розовый')).toBe('MO-1001-rozovyy-2');
  });

  it('a kit’s file names are unique regardless of case, a suffix before the extension', () => {
    const taken = new Set<string>();
    expect(['MO-1', 'mo-1', 'MO-1', 'MO-1-2'].map((name) => uniqueName(taken, name))).toEqual([
      'MO-1',
      'mo-1-2',
      'MO-1-3',
      'MO-1-2-2',
    ]);
    expect(uniqueName(taken, 'MO-1', '.pdf')).toBe('MO-1.pdf');
    expect(uniqueName(taken, 'MO-1', '.pdf')).toBe('MO-1-2.pdf');
  });

  it('colours are transliterated, and nothing but letters, digits and hyphens is left', () => {
    expect(colourSlug('Светло-розовый')).toBe('svetlo-rozovyy');
    expect(colourSlug('Жёлтый / чёрный')).toBe('zheltyy-chernyy');
    expect(colourSlug('???')).toBe('color');
  });
});

describe('the kit’s articles', () => {
  it('each variant has its own; a Wildberries card is one colour', () => {
    const bear = card();
    expect(bear.variants.map((one) => variantArticle(bear, one))).toEqual([
      'MO-1001-rozovyy-25',
      'MO-1001-belyy-25',
      'MO-1001-belyy-40',
    ]);
    expect(colourArticle(bear, 'Белый')).toBe('MO-1001-belyy');
  });

  it('a product of one variant keeps its article', () => {
    const single = card({ variants: [variant('Белый', 25)] });
    expect(variantArticle(single, single.variants[0]!)).toBe('MO-1001');
    expect(colourArticle(single, 'Белый')).toBe('MO-1001');
  });
});
