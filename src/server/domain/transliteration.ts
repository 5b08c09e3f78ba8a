// Russian in Latin letters, for names that must be Latin: a price type's stable code, the kit's
// file names and articles. ГОСТ 7.79-2000 system B as passports and URLs commonly spell it, without
// diacritics.

const LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
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

/**
 * `text` lower-cased, its Russian letters in Latin and every run of anything but Latin letters and
 * digits a hyphen, none at either end: «Крупный опт» → krupnyy-opt. «ё» is `yo`, or `e` where the
 * name is read by people who write «желтый» (`yo: 'e'`).
 */
export function latinSlug(text: string, yo: 'yo' | 'e'): string {
  return [...text.toLowerCase()]
    .map((char) => (char === 'ё' ? yo : (LATIN[char] ?? char)))
    .join('')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
