/** RFC 8187's attr-char: what may stand unescaped in `filename*`. */
const encodeExtValue = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition: attachment` with a file name any browser saves under: `filename*` in UTF-8
 * (RFC 6266) for the real name, `filename` in plain ASCII for clients that know only that (the
 * real name with its other characters as «_», unless the caller gives a better one).
 */
export function attachmentDisposition(fileName: string, asciiFileName = fileName): string {
  const ascii = asciiFileName.replace(/[^\x20-\x7E]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
