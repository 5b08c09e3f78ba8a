/**
 * Requests for one operation of the document, from its own parameters and body schemas: positive
 * (every part valid by its schema, preferring values the shop has) or negative (one part broken:
 * a parameter, the body's data, or the body on the wire), with one of several callers' tokens.
 */
import fc from 'fast-check';
import type { Operation, Parameter } from './openapi';
import { invalidValue, validValue, type Hints, type JsonSchema } from './schema-arbitraries';
import { actorOf, hintsFor, stockedPairs, type ActorKind, type Cast, type FuzzShop } from './shop';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Who sent it, and what was broken on purpose ('none' for positive data). */
  actor: ActorKind;
  broken: string;
  /** A parameter the document calls required, left out: the answer must not be a success. */
  omitted?: string;
}

/** Stands for a required query or header parameter left out. */
const OMIT = Symbol('omitted');

/** A parameter's value as text, as it goes in a path, a query or a header. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Bytes a header may carry (Node refuses to send others): what a client could put there. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '').slice(0, 500);

/** Path segments that break URL decoding or the router's limits. */
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%C0%AF', '%00', 'a'.repeat(600), '%2e%2e%2fpackage.json'];

/** A path parameter's segment; never empty or a dot segment, which would name another path. */
const segment = (text: string) => (text === '' || text === '.' || text === '..' ? null : encodeURIComponent(text));

/** Headers a client may add to any call: conditional and range requests, compression, odd accepts. */
const EXTRA_HEADERS = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'deflate' },
      { range: 'bytes=0-10' },
      { 'if-none-match': '*' },
      { 'if-match': '"nope"' },
      { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() },
      { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
      { accept: 'application/xml' },
      { 'x-forwarded-for': '203.0.113.7' },
      { cookie: 'refresh_token=forged' },
    ),
  },
);

/** Bodies broken on the wire: not JSON, of another type, empty, or too large. */
const BROKEN_WIRE = fc.oneof(
  fc.constantFrom<{ type?: string; payload: string }>(
    { type: 'application/json', payload: '{"user_id": ' },
    { type: 'application/json', payload: '' },
    { type: 'application/json', payload: '[1, 2' },
    { type: 'application/json', payload: 'null' },
    { type: 'application/json', payload: '"text"' },
    { type: 'application/json; charset=latin1', payload: '{}' },
    { type: 'application/xml', payload: '<a/>' },
    { type: 'text/html', payload: '<script>alert(1)</script>' },
    { type: 'application/x-www-form-urlencoded', payload: 'a=1&a=2&__proto__[x]=1' },
    { type: 'multipart/form-data; boundary=x', payload: '--x\r\nbroken' },
    { type: 'not a type', payload: '{}' },
    { payload: '{"a": 1}' },
  ),
  // Beyond the 1 MB body limit.
  fc.constant({ type: 'application/json', payload: `"${'ж'.repeat(600_000)}"` }),
  fc.string({ unit: 'binary', maxLength: 100 }).map((payload) => ({ type: 'application/json', payload })),
);

/** A small file for an upload form: bytes, a CSV quick order or price list, a picture. */
const UPLOAD_FILES = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ name: 'file.bin', bytes: Buffer.from(bytes) })),
  fc.constant({ name: 'order.csv', bytes: Buffer.from('Артикул;Цвет;Размер;Количество\nMO-1001;коричневый;30;1\n') }),
  fc.constant({
    name: 'pixel.png',
    bytes: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  }),
);

function multipart(file: { name: string; bytes: Buffer }): { type: string; payload: Buffer } {
  const boundary = '----fuzz-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/** A body value sent as `type` says. */
function encodeBody(type: string, value: unknown): string {
  if (type === 'application/x-www-form-urlencoded') {
    const fields: [string, unknown][] =
      value !== null && typeof value === 'object' ? Object.entries(value) : [['value', value]];
    return new URLSearchParams(fields.map(([key, field]): [string, string] => [key, asText(field)])).toString();
  }
  if (type === 'text/plain') return asText(value);
  return JSON.stringify(value) ?? 'null';
}

/**
 * Makes named variants real ones: an object with both `product_id` and `variant_id` gets an
 * in-stock pair of the catalogue (the cart and the order refuse a mismatched one before anything).
 */
function withRealPairs(
  value: unknown,
  pairs: fc.Arbitrary<{ product_id: number; variant_id: number }>,
): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) return fc.tuple(...value.map((item) => withRealPairs(item, pairs)));
  if (value === null || typeof value !== 'object') return fc.constant(value);
  const record = value as Record<string, unknown>;
  if (!('product_id' in record && 'variant_id' in record)) {
    const entries = Object.entries(record).map(([key, field]) =>
      withRealPairs(field, pairs).map((real): [string, unknown] => [key, real]),
    );
    return fc.tuple(...entries).map((fields) => Object.fromEntries(fields));
  }
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<unknown>(record) },
    { weight: 3, arbitrary: pairs.map((pair): unknown => ({ ...record, ...pair })) },
  );
}

interface Part {
  where: string;
  valid: fc.Arbitrary<unknown>;
  invalid: fc.Arbitrary<unknown>;
}

function parameterPart(parameter: Parameter, hints: Hints): Part {
  const schema: JsonSchema = parameter.schema;
  return {
    where: `${parameter.in}:${parameter.name}`,
    valid: validValue(schema, hints, parameter.name),
    invalid: invalidValue(schema, hints),
  };
}

/** Which actors call an operation, and how often: the back office mostly as a manager. */
function actorKinds(operation: Operation): fc.Arbitrary<ActorKind> {
  const admin = operation.tags?.includes('admin') ?? false;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<ActorKind>('anonymous') },
    { weight: 1, arbitrary: fc.constant<ActorKind>('forged') },
    { weight: admin ? 1 : 6, arbitrary: fc.constant<ActorKind>('buyer') },
    { weight: 1, arbitrary: fc.constant<ActorKind>('other-buyer') },
    { weight: admin ? 6 : 1, arbitrary: fc.constant<ActorKind>('manager') },
  );
}

export function requestsFor(operation: Operation, cast: Cast, fuzz: FuzzShop): fc.Arbitrary<FuzzRequest> {
  const pairs = fc.constantFrom(...stockedPairs(fuzz.catalogue));
  return actorKinds(operation).chain((kind) => {
    const actor = actorOf(kind, cast);
    const hints = hintsFor(actor, cast, fuzz);
    const parameters = operation.parameters.filter((parameter) => parameter.in !== 'cookie');
    const bodyTypes = Object.keys(operation.requestBody?.content ?? {});
    const targets = [...parameters.map((parameter) => `${parameter.in}:${parameter.name}`), 'wire'];
    if (bodyTypes.length > 0) targets.push('body');
    const broken = fc.oneof(
      { weight: 3, arbitrary: fc.constant('none') },
      { weight: 2, arbitrary: fc.constantFrom(...targets) },
    );
    return broken.chain((brokenPart) => {
      const partValue = (part: Part) => (brokenPart === part.where ? part.invalid : part.valid);
      const values = fc.tuple(
        ...parameters.map((parameter) => {
          const part = parameterPart(parameter, hints);
          const value = partValue(part);
          if (brokenPart === part.where) {
            // A required parameter broken is sometimes one left out (not in a path: that is another URL).
            return parameter.required && parameter.in !== 'path' ? fc.oneof(value, fc.constant(OMIT)) : value;
          }
          // An optional parameter is left out now and then.
          return parameter.required ? value : fc.option(value, { nil: undefined, freq: 3 });
        }),
      );
      const rawSegment = fc.option(fc.constantFrom(...RAW_SEGMENTS), { nil: undefined, freq: 4 });
      const body = bodyFor(operation, bodyTypes, brokenPart, hints, pairs);
      return fc.tuple(values, rawSegment, body, EXTRA_HEADERS).map(([parameterValues, raw, sent, extra]) => {
        let url = operation.path;
        const query = new URLSearchParams();
        const headers: Record<string, string> = { ...extra, ...actor.headers };
        let omitted: string | undefined;
        parameters.forEach((parameter, index) => {
          const value = parameterValues[index];
          if (value === OMIT) omitted = `${parameter.in}:${parameter.name}`;
          if (value === undefined || value === OMIT) return;
          if (parameter.in === 'path') {
            const brokenRaw = brokenPart === `path:${parameter.name}` && raw !== undefined ? raw : null;
            url = url.replace(`{${parameter.name}}`, brokenRaw ?? segment(asText(value)) ?? '0');
          } else if (parameter.in === 'query') {
            for (const item of Array.isArray(value) ? value : [value]) query.append(parameter.name, asText(item));
          } else if (parameter.in === 'header') {
            headers[parameter.name] = headerSafe(asText(value));
          }
        });
        const search = query.toString();
        if (sent?.type !== undefined) headers['content-type'] = sent.type;
        return {
          method: operation.method,
          url: search ? `${url}?${search}` : url,
          headers,
          payload: sent?.payload,
          actor: kind,
          broken: brokenPart,
          omitted,
        };
      });
    });
  });
}

/** The body for a request: one of the documented types with valid or broken data, or broken on the wire. */
function bodyFor(
  operation: Operation,
  bodyTypes: string[],
  brokenPart: string,
  hints: Hints,
  pairs: fc.Arbitrary<{ product_id: number; variant_id: number }>,
): fc.Arbitrary<{ type?: string; payload: string | Buffer } | undefined> {
  if (brokenPart === 'wire') return BROKEN_WIRE;
  if (bodyTypes.length === 0) return fc.constant(undefined);
  return fc.constantFrom(...bodyTypes).chain((type): fc.Arbitrary<{ type: string; payload: string | Buffer }> => {
    if (type.startsWith('multipart/form-data')) return UPLOAD_FILES.map(multipart);
    const schema = operation.requestBody!.content[type]!.schema ?? {};
    const data = brokenPart === 'body' ? invalidValue(schema, hints) : validValue(schema, hints);
    return data
      .chain((value) => withRealPairs(value, pairs))
      .map((value) => ({ type, payload: encodeBody(type, value) }));
  });
}
