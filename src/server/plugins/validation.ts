import Ajv, { type ErrorObject, type Options } from 'ajv';
import localizeRu from 'ajv-i18n/localize/ru';
import type { FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { FIELD_LABELS } from '../../shared/api';
import { unprocessable } from '../api-error';

const common: Options = { removeAdditional: 'all', useDefaults: true, allErrors: false, strict: false };
// Path and query values arrive as text and must be read as numbers; a JSON body must already
// have the right types: "5" where a count is expected is refused, not guessed at.
const textInput = new Ajv({ ...common, coerceTypes: 'array' });
const jsonBody = new Ajv({ ...common, coerceTypes: false });
// A file in a multipart form is documented as a binary string (Swagger UI shows a file picker);
// the form's parts are read by the route, so there is nothing for the format to check.
jsonBody.addFormat('binary', true);
// The formats requests use: ids of legal entities, and the links a manager gives buyers (a messenger).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const webLink = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
for (const ajv of [textInput, jsonBody]) {
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('uri', webLink);
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? jsonBody : textInput).compile(schema);

const partNames: Record<string, string> = {
  body: 'тело запроса',
  querystring: 'параметры запроса',
  params: 'путь',
  headers: 'заголовки',
};

/** A list's item in a body ('/items/2/count'): its index, and the path of the field within it. */
const LIST_ITEM_PATH = /^\/[^/]+\/(\d+)(.*)$/;

/**
 * A Russian sentence for the first schema violation, naming the field a shopper filled in, and
 * for an item of a list (the lines of a bulk addition to the cart) the line, counted from 1.
 */
export function describeValidationError(errors: ErrorObject[], part: string | undefined): string {
  const localized = errors.map((error) => ({ ...error }));
  localizeRu(localized);
  const [first] = localized;
  if (!first) return 'Некорректные данные';
  const [, index, withinItem] = LIST_ITEM_PATH.exec(first.instancePath) ?? [];
  const missing =
    first.keyword === 'required' ? (first.params as { missingProperty?: string }).missingProperty : undefined;
  const path = missing ?? (withinItem ?? first.instancePath).replace(/^\//, '').replaceAll('/', '.');
  // A field a form shows is named by its label there, as the buyer knows it.
  const field = FIELD_LABELS[path] ?? path;
  if (index !== undefined && !field) return `Строка ${Number(index) + 1}: некорректные данные`;
  const where = field ? `поле «${field}»` : (partNames[part ?? ''] ?? 'запрос');
  const problem = missing ? `не заполнено ${where}` : `${where} ${first.message}`;
  return index === undefined ? `Некорректные данные: ${problem}` : `Строка ${Number(index) + 1}: ${problem}`;
}

/**
 * True when any string in `value` (however deeply nested) holds U+0000. Walked with a stack, not
 * recursion, so a deeply nested JSON body cannot overflow the call stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (current !== null && typeof current === 'object') {
      for (const child of Object.values(current)) pending.push(child);
    }
  }
  return false;
}

export default fp(
  async (app) => {
    app.setValidatorCompiler(validatorCompiler);
    // PostgreSQL text cannot hold U+0000: a path, query or body carrying one is refused here (422)
    // instead of failing inside SQL (500). Only the parts the route declares (and so reads): a
    // route without inputs never answers 422, as its OpenAPI operation says.
    // A callback hook: it runs on every request, and an async one costs a promise each.
    app.addHook('preValidation', (request, _reply, done) => {
      const schema = request.routeOptions.schema;
      const refused =
        (schema?.params !== undefined && containsNul(request.params)) ||
        (schema?.querystring !== undefined && containsNul(request.query)) ||
        (schema?.body !== undefined && containsNul(request.body));
      done(refused ? unprocessable('Некорректные данные: недопустимый символ (U+0000) в запросе') : undefined);
    });
  },
  // Its 422s are `{detail}` answers only with the error handler in place.
  { name: 'validation', dependencies: ['error-handling'] },
);
