/** The Windows-1251 byte of a character (Cyrillic, ASCII and the few others a price list holds). */
function win1251(char: string): number {
  const code = char.charCodeAt(0);
  if (code < 0x80) return code;
  if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
  if (char === 'Ё') return 0xa8;
  if (char === 'ё') return 0xb8;
  throw new Error(`no Windows-1251 byte for ${char}`);
}

/** Text as older Excel saves a CSV: in Windows-1251. */
export const windows1251 = (text: string) => Buffer.from(new Uint8Array([...text].map(win1251)));
