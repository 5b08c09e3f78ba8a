import { Type, type TSchema } from 'typebox';
import { PAGE_SIZE } from '../limits';

/** Every 4xx and 5xx answer of the API. */
export const ErrorSchema = Type.Object({ detail: Type.String() }, { $id: 'Error', description: 'Ошибка' });

/** A success that carries only a sentence. */
export const DetailSchema = Type.Object({ detail: Type.String() });

// int4 ids: anything outside this range cannot exist and is refused before it reaches SQL.
export const MAX_ID = 2_147_483_647;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

/**
 * A query field a client may leave out: the validator fills in its default (Ajv's useDefaults), so
 * the handler always has it. It is optional in the JSON schema (and so in the OpenAPI document);
 * its static type stays the filled-in value the handler reads.
 */
export const Defaulted = <Schema extends TSchema>(schema: Schema): Schema => Type.Optional(schema) as unknown as Schema;

export const PageQuery = Type.Object({
  skip: Defaulted(Type.Integer({ minimum: 0, maximum: PAGE_SIZE.skipMax, default: 0 })),
  limit: Defaulted(Type.Integer({ minimum: 1, maximum: PAGE_SIZE.serviceMax, default: PAGE_SIZE.serviceDefault })),
});

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  options?: Parameters<typeof Type.Union>[1],
) => Type.Union([schema, Type.Null()], options);
