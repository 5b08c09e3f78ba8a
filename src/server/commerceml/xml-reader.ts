import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import { CommerceMlError } from './records';

/**
 * The streaming core of the three CommerceML readers: the file is read from disk in 64 KB chunks,
 * decoded as its XML declaration says (1С writes UTF-8, older releases windows-1251), and fed to
 * saxes; the reader's handler turns element events into records, which leave in batches. At any
 * time the process holds one chunk, the open elements and the records of one batch, whatever the
 * file's size.
 */

/** Records per batch handed on (each batch is one transaction's worth of staging rows). */
export const BATCH_RECORDS = 500;
/** A text field (a description, a name) longer than this refuses the file: 1С writes nothing near it. */
export const MAX_TEXT_CHARS = 100_000;
/** Elements nested deeper than this refuse the file (1С's deepest are the groups, a few levels). */
export const MAX_DEPTH = 64;

const CHUNK_BYTES = 64 * 1024;
/**
 * A batch is handed on early once the texts read since the last one pass this many characters, so
 * 500 records with long descriptions do not pile up.
 */
const BATCH_CHARS = 4_000_000;
/**
 * Between two tags saxes gathers text, an attribute or a comment in one string: past this much the
 * file is refused before that string grows, whether or not the element is one we read.
 */
const MAX_CHARS_BETWEEN_TAGS = 2 * MAX_TEXT_CHARS;

/** What a reader is told as the file is parsed; `stack` holds the open elements' local names, the current one last. */
export interface ElementHandler {
  open(stack: readonly string[], attributes: Readonly<Record<string, string>>): void;
  /** The element's own text (trimmed), read since its last child tag: the whole of it for a leaf. */
  close(stack: readonly string[], text: string): void;
}

/** What a handler is given to emit records and refuse the file at the current line. */
export interface ReaderContext<Item> {
  emit(record: Item): void;
  fail(reason: string): never;
}

/** The root every CommerceML 2 file has. */
const ROOT = 'КоммерческаяИнформация';

/** `prefix:name` → `name`: 1С writes the default namespace, others may write a prefix. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** saxes's commonest complaints in the words 1С's operator reads; others as saxes says them. */
function inRussian(message: string): string {
  const unclosed = /^unclosed tag: (.*)$/.exec(message);
  if (unclosed) return `не закрыт элемент «${unclosed[1]}»`;
  if (message.startsWith('unexpected close tag')) return 'закрывающий тег не того элемента, что открыт';
  if (message.startsWith('document must contain a root element')) return 'в файле нет ни одного элемента';
  return message;
}

/** The encoding the first bytes declare: a BOM, else the XML declaration, else UTF-8. */
function declaredEncoding(head: Buffer): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const declaration = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    head.subarray(0, 300).toString('latin1'),
  );
  return declaration?.[1] ?? 'utf-8';
}

/**
 * Parses the CommerceML file at `path` (named `fileName` in errors) with the handler `makeHandler`
 * returns, yielding its records in batches of at most BATCH_RECORDS. Any fault of the file —
 * malformed XML, an unknown encoding, another root, a cap passed — is a CommerceMlError naming
 * the file and line.
 */
export async function* readCommerceMl<Item>(
  path: string,
  fileName: string,
  makeHandler: (context: ReaderContext<Item>) => ElementHandler,
): AsyncGenerator<Item[]> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const fail = (reason: string): never => {
    throw new CommerceMlError(fileName, parser.line, reason);
  };
  const pending: Item[] = [];
  let pendingChars = 0;
  const handler = makeHandler({ emit: (record) => pending.push(record), fail });

  const stack: string[] = [];
  let text = '';
  let lastTagAt = 0;
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (stack.length === 0 && name !== ROOT) fail(`это не файл CommerceML: корневой элемент «${name}», а не «${ROOT}»`);
    if (stack.length >= MAX_DEPTH) fail(`элементы вложены глубже ${MAX_DEPTH} уровней`);
    stack.push(name);
    text = '';
    lastTagAt = parser.position;
    const attributes: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) attributes[localName(key)] = value;
    handler.open(stack, attributes);
  });
  parser.on('closetag', () => {
    lastTagAt = parser.position;
    pendingChars += text.length;
    handler.close(stack, text.trim());
    stack.pop();
    text = '';
  });
  const addText = (piece: string) => {
    if (stack.length === 0) return;
    if (text.length + piece.length > MAX_TEXT_CHARS) fail(`текст длиннее ${MAX_TEXT_CHARS} символов`);
    text += piece;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);

  const parse = (chunk: string | null) => {
    try {
      if (chunk === null) parser.close();
      else parser.write(chunk);
    } catch (error) {
      if (error instanceof CommerceMlError) throw error;
      // saxes says `line:column: message`; the line is ours to say, the message its own.
      const message = error instanceof Error ? error.message.replace(/^(.*?:)?\d+:\d+: /, '') : String(error);
      throw new CommerceMlError(fileName, parser.line, `XML не разобран: ${inRussian(message)}`);
    }
    if (chunk !== null && parser.position - lastTagAt > MAX_CHARS_BETWEEN_TAGS)
      fail(`текст длиннее ${MAX_TEXT_CHARS} символов`);
  };

  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let decoder: ReturnType<typeof iconv.getDecoder> | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!decoder) {
        const encoding = declaredEncoding(chunk);
        if (!iconv.encodingExists(encoding))
          throw new CommerceMlError(fileName, 1, `неизвестная кодировка «${encoding}»`);
        decoder = iconv.getDecoder(encoding);
      }
      parse(decoder.write(chunk));
      while (pending.length >= BATCH_RECORDS) yield pending.splice(0, BATCH_RECORDS);
      if (pendingChars >= BATCH_CHARS) {
        if (pending.length > 0) yield pending.splice(0);
        pendingChars = 0;
      }
    }
    const rest = decoder?.end();
    if (rest) parse(rest);
    parse(null);
  } catch (error) {
    if (error instanceof CommerceMlError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CommerceMlError(fileName, null, 'файл не найден');
    throw error;
  } finally {
    stream.destroy();
  }
  while (pending.length > 0) yield pending.splice(0, BATCH_RECORDS);
}

/** Whether the open elements end with `names`: `endsWith(stack, 'Товары', 'Товар')`. */
export function endsWith(stack: readonly string[], ...names: string[]): boolean {
  if (stack.length < names.length) return false;
  const offset = stack.length - names.length;
  return names.every((name, index) => stack[offset + index] === name);
}

/** CommerceML's booleans: `true`/`false`, and 1С's older `1`/`0` and `да`. */
export const isTrue = (value: string) => /^(true|1|да)$/i.test(value.trim());

/**
 * A number as 1С writes it: a point or, in older releases, a comma, maybe with spaces between
 * thousands; '' is null. Anything else refuses the file at its line.
 */
export function parseDecimal(value: string, element: string, fail: (reason: string) => never): number | null {
  const compact = value.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (compact === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(compact)) fail(`в «${element}» не число: «${value.slice(0, 40)}»`);
  return Number(compact);
}
