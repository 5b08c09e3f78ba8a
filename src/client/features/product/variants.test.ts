import { variant } from '@/test/fixtures';
import { chooseColour, chooseSize, coloursOf, sizesOf } from './variants';

const VARIANTS = [
  variant({ id: 1, color: 'Розовый', size: 25 }),
  variant({ id: 2, color: 'Розовый', size: 40 }),
  variant({ id: 3, color: 'Голубой', size: 60 }),
  variant({ id: 4, color: 'Голубой', size: 40 }),
];

describe('variant choice (SPEC §4)', () => {
  test('colours in order of appearance, sizes of a colour ascending', () => {
    expect(coloursOf(VARIANTS)).toEqual(['Розовый', 'Голубой']);
    expect(sizesOf(VARIANTS, 'Голубой').map((v) => v.size)).toEqual([40, 60]);
  });

  test('a new colour keeps the chosen size when it has it', () => {
    expect(chooseColour(VARIANTS, VARIANTS[1], 'Голубой')?.id).toBe(4);
  });

  test('a new colour without the chosen size gets its smallest size', () => {
    expect(chooseColour(VARIANTS, VARIANTS[0], 'Голубой')?.id).toBe(4);
    expect(chooseColour(VARIANTS, VARIANTS[2], 'Розовый')?.id).toBe(1);
  });

  test('a size picks that colour/size variant', () => {
    expect(chooseSize(VARIANTS, 'Голубой', 60)?.id).toBe(3);
    expect(chooseSize(VARIANTS, 'Голубой', 25)).toBeUndefined();
  });
});
