import { ErrorSchema } from '../../shared/schemas/common';

/** Response entries for the error statuses a route can answer. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
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
