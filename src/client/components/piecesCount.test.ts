import { piecesCount } from '@/components/piecesCount';

describe('piecesCount (Russian plural forms)', () => {
  test.each([
    [1, '1 штука'],
    [3, '3 штуки'],
    [5, '5 штук'],
    [11, '11 штук'],
    [21, '21 штука'],
    [24, '24 штуки'],
    [100, '100 штук'],
  ])('%i → %s', (count, text) => {
    expect(piecesCount(count)).toBe(text);
  });
});
