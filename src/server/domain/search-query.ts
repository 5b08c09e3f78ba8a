/**
 * How the search reads what a buyer typed, before any database sees it (repositories/products.ts
 * search): the article's key, the number alone, the words, and the same keys pressed in the other
 * keyboard layout.
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

/** The letters of LOOK_ALIKES as SQL's translate() takes them. */
export const LOOK_ALIKE_CYRILLIC = Object.keys(LOOK_ALIKES).join('');
export const LOOK_ALIKE_LATIN = Object.values(LOOK_ALIKES).join('');

/** A query of digits alone (spaces and hyphens aside) is an article's number: «1001» finds MO-1001. */
export function articleNumber(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d+$/.test(digits) ? digits : null;
}

/**
 * The words of a query for the dictionary: runs of letters (and digits), lower-cased, «ё» kept (the
 * dictionary has it). A hyphenated word gives its parts, as PostgreSQL's parser does.
 */
export function queryWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether the query uses websearch_to_tsquery's syntax (a «"…"» phrase, «-word» to exclude,
 * «or»): then it is read as written, not widened to every form of its words.
 */
export function usesSearchSyntax(text: string): boolean {
  return /["]|(^|\s)-\S|\sor\s/i.test(text);
}

const LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";
const CYRILLIC_KEYS = 'йцукенгшщзхъфывапролджэячсмитьбюё';
const TO_CYRILLIC = new Map([...LATIN_KEYS].map((key, index) => [key, CYRILLIC_KEYS[index]]));
const TO_LATIN = new Map([...CYRILLIC_KEYS].map((key, index) => [key, LATIN_KEYS[index]]));

/**
 * The same keys pressed in the other layout (ЙЦУКЕН and QWERTY): «vbirf» is «мишка», «ЬЩ-1001»
 * MO-1001. A query with Cyrillic letters goes to Latin, any other to Cyrillic; `null` when the
 * other layout gives the same text (digits alone, say).
 */
export function otherLayout(text: string): string | null {
  const lower = text.toLowerCase();
  const keys = /[а-яё]/.test(lower) ? TO_LATIN : TO_CYRILLIC;
  const other = [...lower].map((key) => keys.get(key) ?? key).join('');
  return other === lower ? null : other;
}
