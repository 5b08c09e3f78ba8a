/** Which block each line was put in (line key → block number), kept for as long as the cart is shown. */
export type BlockPlacement = Map<number, number>;

export interface Block<Line> {
  /** The block's number: stable, so React keeps the block's lines when others come and go. */
  key: number;
  lines: Line[];
}

/**
 * Groups the cart's lines into blocks of `size` that the browser skips rendering while they are off
 * screen (docs/decisions.md, "A long cart"). A line stays in the block it was first put in: deleting
 * a line leaves its block one line shorter instead of moving every later line into the block before
 * it, which would make React re-create all of them. New lines fill new blocks.
 */
export function groupInBlocks<Line>(
  lines: Line[],
  keyOf: (line: Line) => number,
  size: number,
  placement: BlockPlacement,
): Block<Line>[] {
  const blocks = new Map<number, Line[]>();
  for (const line of lines) {
    const key = keyOf(line);
    let blockNumber = placement.get(key);
    if (blockNumber === undefined) {
      // Places are never reused, so the count of lines ever placed numbers the next place.
      blockNumber = Math.floor(placement.size / size);
      placement.set(key, blockNumber);
    }
    const block = blocks.get(blockNumber);
    if (block) block.push(line);
    else blocks.set(blockNumber, [line]);
  }
  return [...blocks].map(([key, blockLines]) => ({ key, lines: blockLines }));
}
