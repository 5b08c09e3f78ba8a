/** `text` for a LIKE pattern, its wildcards and backslashes matched literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
