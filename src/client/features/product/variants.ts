import type { Variant } from '@shared/api';

/** Colours in the order they first appear (variants come sorted by size). */
export function coloursOf(variants: Variant[]): string[] {
  return [...new Set(variants.map((variant) => variant.color))];
}

export function sizesOf(variants: Variant[], colour: string): Variant[] {
  return variants.filter((variant) => variant.color === colour).sort((a, b) => a.size - b.size || a.id - b.id);
}

/**
 * SPEC §4: choosing a colour selects its smallest size, unless the new colour comes in the size
 * chosen before, in which case that size is kept.
 */
export function chooseColour(variants: Variant[], current: Variant | undefined, colour: string): Variant | undefined {
  const ofColour = sizesOf(variants, colour);
  return ofColour.find((variant) => variant.size === current?.size) ?? ofColour[0];
}

/** Choosing a size selects that colour/size variant. */
export function chooseSize(variants: Variant[], colour: string, size: number): Variant | undefined {
  return variants.find((variant) => variant.color === colour && variant.size === size);
}

/** A colour or size is unavailable when none of its variants has stock. */
export function noneInStock(variants: Variant[]): boolean {
  return variants.every((variant) => variant.stock <= 0);
}
