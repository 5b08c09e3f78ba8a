/**
 * The served OpenAPI document, read as the fuzzer needs it: its operations, and a check of an
 * answer against what the operation documents (status, content type, body schema).
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { JsonSchema } from './schema-arbitraries';

export interface MediaType {
  schema?: JsonSchema;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The document's path, `{name}` for each path parameter. */
  path: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
  security?: unknown[];
  tags?: string[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
}

/** Where the server publishes its document (plugins/docs.ts). */
export const DOCUMENT_URL = '/api/docs/json';

/** The document as the server serves it, with every operation in it. */
export async function servedOperations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ method: 'GET', url: DOCUMENT_URL });
  if (response.statusCode !== 200) throw new Error(`${DOCUMENT_URL}: ${response.statusCode}`);
  const document = response.json() as OpenApiDocument;
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      ...operation,
      parameters: operation.parameters ?? [],
      method: method.toUpperCase(),
      path,
    })),
  );
}

/** `GET /api/v1/cart/{user_id}`: how an operation is named in what the fuzzer reports. */
export const operationName = (operation: Pick<Operation, 'method' | 'path'>) => `${operation.method} ${operation.path}`;

/** A media type without its parameters, lower-cased: `text/csv; charset=utf-8` → `text/csv`. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

const DECOMPRESS: Record<string, (data: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};

/** The answer's body as text, decompressed as its Content-Encoding says. */
export function bodyText(response: LightMyRequestResponse): string {
  const encoding = String(response.headers['content-encoding'] ?? 'identity');
  const decompress = DECOMPRESS[encoding];
  return decompress ? decompress(response.rawPayload).toString('utf8') : response.body;
}

/**
 * What is wrong with an answer as an error (none for a success or an answer to HEAD): every refusal
 * and failure is JSON `{detail}`, a non-empty string and nothing else, whatever the document says.
 */
export function errorBodyProblems(method: string, response: LightMyRequestResponse): string[] {
  if (response.statusCode < 400 || method.toUpperCase() === 'HEAD') return [];
  const problems: string[] = [];
  if (!String(response.headers['content-type']).startsWith('application/json'))
    problems.push(`error with content-type ${response.headers['content-type']}`);
  try {
    const body = JSON.parse(bodyText(response)) as unknown;
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    if (
      keys.join() !== 'detail' ||
      typeof (body as { detail: unknown }).detail !== 'string' ||
      !(body as { detail: string }).detail
    ) {
      problems.push('error body is not {detail: string}');
    }
  } catch {
    problems.push('error body is not JSON');
  }
  return problems.map((problem) => `${problem}: ${response.statusCode} ${bodyText(response).slice(0, 300)}`);
}

/** A check of answers against the document: a sentence for each way an answer is not what it says. */
export type AnswerCheck = (operation: Operation, response: LightMyRequestResponse) => string[];

/** @fastify/swagger writes every schema inline (no `$ref`), so each one compiles on its own. */
export function answerChecker(): AnswerCheck {
  // OpenAPI 3.0 schemas: `nullable` is Ajv's own keyword, `binary` a format Ajv does not know.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (key: string, schema: JsonSchema) => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    return validate;
  };

  return (operation, response) => {
    const name = operationName(operation);
    const status = String(response.statusCode);
    const said = `${name} → ${status}`;
    const problems: string[] = [];
    if (response.statusCode >= 500) problems.push(`${said}: a server error: ${response.body.slice(0, 300)}`);
    if (response.headers['x-content-type-options'] !== 'nosniff') problems.push(`${said}: no X-Content-Type-Options`);
    const documented =
      operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
    if (!documented) {
      problems.push(
        `${said}: status not documented (${Object.keys(operation.responses).join(', ')}): ${response.body.slice(0, 200)}`,
      );
      return problems;
    }
    if (!documented.content) {
      if (response.rawPayload.length > 0) problems.push(`${said}: documented without a body, answered one`);
      return problems;
    }
    const type = mediaType(String(response.headers['content-type'] ?? ''));
    const entry = Object.entries(documented.content).find(([documentedType]) => mediaType(documentedType) === type);
    if (!entry) {
      problems.push(`${said}: content type «${type}» not among ${Object.keys(documented.content).join(', ')}`);
      return problems;
    }
    const [documentedType, media] = entry;
    if (!isJson(type) || !media.schema) return problems;
    const text = bodyText(response);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`${said}: not JSON: ${response.body.slice(0, 200)}`);
      return problems;
    }
    const validate = validatorFor(`${name} ${status} ${documentedType}`, media.schema);
    if (!validate(body)) {
      const [first] = validate.errors ?? [];
      problems.push(
        `${said}: body does not match its schema (${first?.instancePath} ${first?.message}): ${text.slice(0, 300)}`,
      );
    }
    return problems;
  };
}
