// A price type's stable code, made once from its first name: Latin letters, digits and hyphens, so
// that it reads well in a price list's header («Цена «Крупный опт» [krupnyy-opt]») and in 1С's mapping.

import { latinSlug } from './transliteration';

const CODE_MAX = 40;

/** The code for a type named `name` that none of `taken` has: «Крупный опт» → krupnyy-opt (-2, -3… when taken). */
export function priceTypeCode(name: string, taken: ReadonlySet<string>): string {
  // «ё» as yo: the codes made before this rule was shared spelled it so, and a code never changes.
  const base = latinSlug(name, 'yo').slice(0, CODE_MAX) || 'type';
  let code = base;
  for (let suffix = 2; taken.has(code); suffix += 1) code = `${base}-${suffix}`;
  return code;
}
