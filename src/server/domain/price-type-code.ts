// A price type's stable code, made once from its first name: Latin letters, digits and hyphens, so
// that it reads well in a price list's header («Цена «Крупный опт» [krupnyy-opt]») and in 1С's mapping.

// ГОСТ 7.79-2000 system B as passports and URLs commonly spell it, without diacritics.
const LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

const CODE_MAX = 40;

/** The code for a type named `name` that none of `taken` has: «Крупный опт» → krupnyy-opt (-2, -3… when taken). */
export function priceTypeCode(name: string, taken: ReadonlySet<string>): string {
  const base =
    [...name.toLowerCase()]
      .map((char) => LATIN[char] ?? char)
      .join('')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, CODE_MAX) || 'type';
  let code = base;
  for (let suffix = 2; taken.has(code); suffix += 1) code = `${base}-${suffix}`;
  return code;
}
