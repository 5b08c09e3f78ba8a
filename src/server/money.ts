// Prices travel from numeric(12,2) columns as strings; sums are done in whole kopecks so that
// no binary-float rounding can creep into a total.
export function toKopecks(decimal: string): number {
  return Math.round(Number(decimal) * 100);
}

export function kopecksToRubles(kopecks: number): number {
  return kopecks / 100;
}

export function kopecksToDecimal(kopecks: number): string {
  return (kopecks / 100).toFixed(2);
}

/** A price in rubles, already checked to be whole kopecks, as numeric(12,2) takes it. */
export function rublesToDecimal(rubles: number): string {
  return rubles.toFixed(2);
}
