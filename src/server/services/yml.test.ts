// The pictures of an offer in a product feed (services/yml.ts): the colour's photos, then the
// product's set, then the product's image; never the «no photo» placeholder.
import type { PhotoSet } from '../repositories/product-photos';
import { NEW_PRODUCT_IMAGE } from './catalogue-images';
import { MAX_PICTURES, picturesOf } from './yml';

const ORIGIN = 'https://shop.example';
const url = (image: string) => `${ORIGIN}/api/v1/image/${image}`;
const set = (color: string | null, images: string[]): PhotoSet => ({ productId: 1, color, images });

test('the colour’s photos come first, then the product’s set, each once, the other colours’ left out', () => {
  const sets = [set(null, ['own-1.jpg', 'red-1.jpg']), set('красный', ['red-1.jpg']), set('синий', ['blue-1.jpg'])];
  expect(picturesOf({ image: 'cover.jpg' }, 'красный', sets, ORIGIN)).toEqual([url('red-1.jpg'), url('own-1.jpg')]);
});

test('with no photo, the product’s image; at most MAX_PICTURES', () => {
  expect(picturesOf({ image: 'cover.jpg' }, 'красный', [], ORIGIN)).toEqual([url('cover.jpg')]);
  const many = Array.from({ length: MAX_PICTURES + 3 }, (_, index) => `photo-${index}.jpg`);
  expect(picturesOf({ image: 'cover.jpg' }, 'красный', [set(null, many)], ORIGIN)).toHaveLength(MAX_PICTURES);
});

test('the «no photo» placeholder is never a picture', () => {
  expect(picturesOf({ image: NEW_PRODUCT_IMAGE }, 'красный', [], ORIGIN)).toEqual([]);
  expect(picturesOf({ image: 'cover.jpg' }, 'красный', [set(null, [NEW_PRODUCT_IMAGE, 'own-1.jpg'])], ORIGIN)).toEqual([
    url('own-1.jpg'),
  ]);
});
