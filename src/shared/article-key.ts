/**
 * An article as the search compares it, on the server (its index, db/schema.ts articleKeySql) and in
 * the storefront (a whole article typed opens its product).
 */

/** Cyrillic capitals drawn as Latin ones, lower-cased: «МО-1001» typed in Russian is MO-1001. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
};

/**
 * An article as compared: lower case, Cyrillic look-alikes as their Latin letters, nothing but
 * letters and digits («МО 1001», «mo1001» and «MO-1001» are one key). The database folds the
 * articles by the same rule (`articleKeySql` in db/schema.ts).
 */
export function articleKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[авекмнорстух]/g, (letter) => LOOK_ALIKES[letter] ?? letter)
    .replace(/[^a-z0-9а-яё]/g, '');
}

/** The letters of LOOK_ALIKES as SQL's translate() takes them (db/schema.ts). */
export const LOOK_ALIKE_CYRILLIC = Object.keys(LOOK_ALIKES).join('');
export const LOOK_ALIKE_LATIN = Object.values(LOOK_ALIKES).join('');
