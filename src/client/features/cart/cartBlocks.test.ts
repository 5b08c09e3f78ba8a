import { groupInBlocks, type BlockPlacement } from './cartBlocks';

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const group = (lines: number[], placement: BlockPlacement) => groupInBlocks(lines, (line) => line, 3, placement);

describe('groupInBlocks', () => {
  test('splits the lines, in order, into blocks of the given size', () => {
    expect(group(ids(1, 7), new Map())).toEqual([
      { key: 0, lines: [1, 2, 3] },
      { key: 1, lines: [4, 5, 6] },
      { key: 2, lines: [7] },
    ]);
  });

  test('a deleted line leaves its block shorter: no later line changes block', () => {
    const placement: BlockPlacement = new Map();
    group(ids(1, 7), placement);
    expect(group([1, 3, 4, 5, 6, 7], placement)).toEqual([
      { key: 0, lines: [1, 3] },
      { key: 1, lines: [4, 5, 6] },
      { key: 2, lines: [7] },
    ]);
  });

  test('a block whose lines are all deleted disappears, and its number is not given to another', () => {
    const placement: BlockPlacement = new Map();
    group(ids(1, 7), placement);
    expect(group([1, 2, 3, 7], placement)).toEqual([
      { key: 0, lines: [1, 2, 3] },
      { key: 2, lines: [7] },
    ]);
  });

  test('new lines go after every line placed before, never into a gap a deletion left', () => {
    const placement: BlockPlacement = new Map();
    group(ids(1, 4), placement);
    expect(group([1, 3, 4, 8, 9, 10], placement)).toEqual([
      { key: 0, lines: [1, 3] },
      { key: 1, lines: [4, 8, 9] },
      { key: 2, lines: [10] },
    ]);
  });
});
