import { Type } from 'typebox';
import { PAGE_SIZE } from '../api';

/** Every 4xx and 5xx answer of the API. */
export const ErrorSchema = Type.Object({ detail: Type.String() }, { $id: 'Error', description: 'Ошибка' });

/** A success that carries only a sentence. */
export const DetailSchema = Type.Object({ detail: Type.String() });

// int4 ids: anything outside this range cannot exist and is refused before it reaches SQL.
export const MAX_ID = 2_147_483_647;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

export const PageQuery = Type.Object({
  skip: Type.Integer({ minimum: 0, maximum: PAGE_SIZE.skipMax, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: PAGE_SIZE.serviceMax, default: PAGE_SIZE.serviceDefault }),
});

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  options?: Parameters<typeof Type.Union>[1],
) => Type.Union([schema, Type.Null()], options);
