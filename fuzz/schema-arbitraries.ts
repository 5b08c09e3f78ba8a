/**
 * fast-check arbitraries from the JSON schemas of the OpenAPI document: values a schema accepts
 * (positive data) and values it very likely refuses (negative data). Only the keywords the
 * document uses are read; an unknown one is ignored, which at worst makes a value less valid.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
}

/**
 * Values known to exist in the shop (its ids, articles, categories…) by field or parameter name:
 * positive data prefers them, so that calls get past «not found» into the code behind.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Text with everything in it: any code point, graphemes, or plain ASCII. */
const anyText = (minLength: number, maxLength: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }).filter((text) => [...text].length <= maxLength),
  );

/** Bounds of a number schema, with the exclusive ones (a number in JSON Schema 2019, a flag in OpenAPI 3.0) made inclusive for integers. */
function bounds(schema: JsonSchema, integer: boolean) {
  const step = integer ? 1 : Number.EPSILON;
  let min = schema.minimum ?? (integer ? -(2 ** 31) : -1e9);
  let max = schema.maximum ?? (integer ? 2 ** 31 - 1 : 1e9);
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + step;
  else if (schema.exclusiveMinimum === true) min += step;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - step;
  else if (schema.exclusiveMaximum === true) max -= step;
  return { min, max };
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= minLength && length <= (schema.maxLength ?? Infinity);
  };
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }).filter(fits);
  if (schema.format === 'date') return fc.date({ noInvalidDate: true }).map((day) => day.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((instant) => instant.toISOString());
  return anyText(minLength, maxLength);
}

/** A value `schema` accepts, preferring `hints[name]` where the shop has real ones. */
export function validValue(schema: JsonSchema, hints: Hints = {}, name?: string): fc.Arbitrary<unknown> {
  const generic = validBySchema(schema, hints);
  const hint = name === undefined ? undefined : hints[name];
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: generic }) : generic;
}

function validBySchema(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.nullable) {
    const rest = { ...schema, nullable: false };
    return fc.oneof({ weight: 4, arbitrary: validBySchema(rest, hints) }, { weight: 1, arbitrary: fc.constant(null) });
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validBySchema(alternative, hints)));
  switch (schema.type) {
    case 'string':
      return validString(schema);
    case 'integer': {
      const { min, max } = bounds(schema, true);
      // Mostly near the lower bound, where the shop's real values are; sometimes anywhere.
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 50) }), fc.integer({ min, max }));
    }
    case 'number': {
      const { min, max } = bounds(schema, false);
      const kopecks = fc
        .integer({ min: Math.ceil(Math.max(min, -1e7) * 100), max: Math.floor(Math.min(max, 1e7) * 100) })
        .map((value) => value / 100);
      return fc.oneof(kopecks, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(schema.items ?? {}, hints), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (!schema.properties)
        return schema.type === 'object' ? fc.object({ maxDepth: 1 }) : fc.jsonValue({ maxDepth: 2 });
      const fields = Object.fromEntries(
        Object.entries(schema.properties).map(([key, property]) => [key, validValue(property, hints, key)]),
      );
      return fc
        .record(fields, { requiredKeys: schema.required ?? [] })
        .filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Numbers that have broken servers: huge, negative, fractional, beyond int4 and double precision. */
const NASTY_NUMBERS = [
  0,
  -1,
  -0,
  0.5,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];
/** Text that has broken parsers: SQL, traversal, NUL, bidi and byte-order marks, templates, prototypes. */
const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  "' OR '1'='1",
  '../../etc/passwd',
  '\u202E',
  '\uFEFF1',
  '１',
  '🧸'.repeat(50),
  '${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  '1e3',
  'я'.repeat(1001),
  'a'.repeat(10_001),
];
const NASTY = fc.oneof(fc.constantFrom<unknown>(...NASTY_NUMBERS, ...NASTY_TEXT), fc.constant({}), fc.constant([]));

/** A value of another JSON type than `schema` takes. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const others: unknown[] = ['text', 42, 4.2, true, {}, [1]].filter((value) => {
    if (schema.type === 'integer') return !Number.isInteger(value);
    if (schema.type === 'number') return typeof value !== 'number';
    if (schema.type === 'array') return !Array.isArray(value);
    if (schema.type === 'object') return typeof value !== 'object' || Array.isArray(value);
    return typeof value !== schema.type;
  });
  if (!schema.nullable) others.push(null);
  return fc.constantFrom(...others);
}

/** A value `schema` very likely refuses: a wrong type, out of range, too long, missing fields. */
export function invalidValue(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const ways: fc.Arbitrary<unknown>[] = [wrongType(schema), NASTY];
  if (schema.enum) ways.push(anyText(1, 20).filter((text) => !schema.enum!.includes(text)));
  if (schema.type === 'integer' || schema.type === 'number') {
    const { min, max } = bounds(schema, schema.type === 'integer');
    ways.push(fc.constantFrom(min - 1, max + 1, -min - 1, min + 0.5));
  }
  if (schema.type === 'string') {
    if (schema.maxLength !== undefined) {
      const { maxLength } = schema;
      ways.push(fc.integer({ min: maxLength + 1, max: maxLength + 50 }).map((length) => 'ж'.repeat(length)));
    }
    if (schema.minLength) ways.push(fc.constant(''));
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern, 'u');
      ways.push(anyText(0, 20).filter((text) => !pattern.test(text)));
    }
  }
  if (schema.type === 'array') {
    const item = schema.items ?? {};
    ways.push(fc.array(invalidValue(item, hints), { minLength: 1, maxLength: 3 }));
    if (schema.minItems) ways.push(fc.constant([]));
    if (schema.maxItems !== undefined && schema.maxItems <= 1000) {
      const tooMany = schema.maxItems + 1;
      ways.push(validValue(item, hints).map((value) => Array.from({ length: tooMany }, () => value)));
    }
  }
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length > 0) {
    const whole = validValue(schema, hints) as fc.Arbitrary<Record<string, unknown>>;
    const required = schema.required ?? [];
    if (required.length > 0) {
      // A required field missing.
      ways.push(
        fc.tuple(whole, fc.constantFrom(...required)).map(([value, key]) => {
          const { [key]: _missing, ...rest } = value;
          return rest;
        }),
      );
    }
    // One field wrong, the others as they should be.
    ways.push(
      fc
        .constantFrom(...properties)
        .chain(([key, property]) =>
          fc.tuple(whole, invalidValue(property, hints)).map(([value, wrong]) => ({ ...value, [key]: wrong })),
        ),
    );
  }
  return fc.oneof(...ways);
}
