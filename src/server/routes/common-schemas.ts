import { ErrorSchema } from '../../shared/schemas/common';

/** Response entries for the error statuses a route can answer. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
}

/** Protected routes document their bearer requirement in the OpenAPI document. */
export const bearer = [{ bearerAuth: [] }];
