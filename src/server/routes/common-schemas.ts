import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { ErrorSchema } from '../../shared/schemas/common';

/** Response entries for the error statuses a route can answer. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
}

/** A success answered with a file (bytes, not JSON) of one of `contentTypes`, whole or streamed as it is written. */
export function fileAnswer(description: string, contentTypes: readonly string[]) {
  const file = { schema: Type.Unsafe<Buffer | Readable>({ type: 'string', format: 'binary' }) };
  return { description, content: Object.fromEntries(contentTypes.map((type) => [type, file])) };
}

/** Protected routes document their bearer requirement in the OpenAPI document. */
export const bearer = [{ bearerAuth: [] }];

/**
 * A back-office route's schema: under «admin» in the OpenAPI document, behind the bearer token,
 * and answering 401 and 403 {detail}, as every route behind the managers' guard does.
 */
export function managersOnly<Schema extends { summary: string; response: object }>(schema: Schema) {
  const response = { ...schema.response, ...errors(401, 403) };
  return {
    tags: ['admin'],
    security: bearer,
    ...schema,
    response: response as Schema['response'] & Record<401 | 403, typeof ErrorSchema>,
  };
}
