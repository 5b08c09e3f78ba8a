import { Type } from 'typebox';
import { CATALOGUE_LIMITS, LIMITS } from '../api';
import { Nullable, PageQuery } from './common';

export const VariantSchema = Type.Object({
  id: Type.Integer(),
  color: Type.String(),
  size: Type.Number({ description: 'Размер, см' }),
  price: Type.Number({ description: 'Цена, ₽' }),
  stock: Type.Integer({ description: 'Остаток, шт.' }),
});

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  art: Type.String({ description: 'Артикул' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  big_description: Nullable(Type.String()),
  image: Type.String({ description: 'Имя файла для GET /api/v1/image/{name}' }),
  variants: Type.Array(VariantSchema, { description: 'По возрастанию размера' }),
});

export const CategoryParams = Type.Object({
  category: Type.String({ minLength: 1, maxLength: CATALOGUE_LIMITS.categoryNameMax }),
});

export const SearchQuery = Type.Object({
  q: Type.String({
    maxLength: LIMITS.searchQueryMax,
    description: 'Слова названия или описания, артикул или его начало',
  }),
  ...PageQuery.properties,
});

export const ArtParams = Type.Object({ art: Type.String({ minLength: 1, maxLength: LIMITS.artMax }) });

export const BannerSchema = Type.Object({ id: Type.Integer(), image: Type.String(), url: Nullable(Type.String()) });
