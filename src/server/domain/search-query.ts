/**
 * How the search reads what a buyer typed, before any database sees it (repositories/products.ts
 * search): the article's key, the number alone, the words, and the same keys pressed in the other
 * keyboard layout. The article's key is shared with the storefront (src/shared/article-key.ts).
 */

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
