import { planImport, previewRowsOf, type ExistingVariant, type ShopState } from '../domain/price-list-plan';
import { variantKey, type NumberedRow } from '../domain/price-list-rows';
import { cardChangesOf } from './price-list';

// The routes' tests see only the changed rows' lists (an unchanged row is not among the changes);
// here every previewed row's, straight from the plan that tells them apart.

const CARD_OF_VARIANT = {
  barcode: null,
  marked: false,
  package_length_mm: 255,
  package_width_mm: null,
  package_height_mm: null,
  weight_g: null,
};
const variant = (id: number, color: string): [string, ExistingVariant] => [
  variantKey({ art: 'Z-1', color, size: 25 }),
  { id, priceKopecks: 99_000, stock: 4, typePrices: new Map(), card: CARD_OF_VARIANT },
];
const shop: ShopState = {
  categoryIds: new Map([['Зайцы', 1]]),
  typeIds: new Map(),
  productsByArt: new Map([
    [
      'Z-1',
      {
        id: 1,
        name: 'Зайка',
        categoryId: 1,
        category: 'Зайцы',
        hidden: false,
        packaging: { multiple: 1, min_quantity: 1 },
        card: {
          brand: 'Плюшевый мир',
          material: null,
          filler: null,
          age_from: 3,
          country_of_origin: null,
          tnved: null,
        },
      },
    ],
  ]),
  variantsByKey: new Map([variant(1, 'белый'), variant(2, 'серый')]),
  barcodeHolders: new Map(),
};
/** A row of Z-1 as the shop has it, with the file's card columns: the brand, the age, the package's length and the weight. */
const row = (number: number, color: string, weight: number | null): NumberedRow => ({
  row: number,
  art: 'Z-1',
  name: 'Зайка',
  category: 'Зайцы',
  color,
  size: 25,
  priceKopecks: 99_000,
  typePrices: [],
  stock: 4,
  packaging: null,
  productCard: { brand: 'Плюшевый мир', age_from: 3 },
  variantCard: { package_length_mm: 255, weight_g: weight },
});

it('a row the plan leaves unchanged lists no card change; one it changes by its card alone lists that change', () => {
  const rows = [row(2, 'белый', null), row(3, 'серый', 450), row(4, 'розовый', 300)];
  const previewed = previewRowsOf(planImport(rows, shop), shop);
  expect(previewed.map((change) => [change.row, change.kind, cardChangesOf(change)])).toEqual([
    [2, 'unchanged', []],
    [3, 'updated', [{ column: 'Вес, г', before: null, after: '450' }]],
    // A new variant's own weight is its first value, not a change; its product's card stays.
    [4, 'created', []],
  ]);
});
