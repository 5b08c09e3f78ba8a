import { Type } from 'typebox';
import {
  AdminBannerSchema,
  AdminCategorySchema,
  AdminProductListSchema,
  AdminProductSchema,
  AdminProductsQuery,
  AdminVariantSchema,
  AuditListSchema,
  AuditQuery,
  BannerBody,
  BannerPatchBody,
  CategoryBody,
  CategoryPatchBody,
  EntityParams,
  ProductCreateBody,
  ProductPatchBody,
  VariantBody,
  VariantPatchBody,
} from '../../../shared/schemas/admin-catalogue';
import { bearer, errors } from '../common-schemas';

const tags = ['admin'];
const Deleted = { 204: Type.Null({ description: 'Удалено' }) };

export const listProducts = {
  tags,
  summary: 'Товары для менеджеров, снятые с продажи тоже: поиск по артикулу или названию, категория, страницы',
  security: bearer,
  querystring: AdminProductsQuery,
  response: { 200: AdminProductListSchema, ...errors(401, 403, 422) },
};

export const getProduct = {
  tags,
  summary: 'Товар с вариантами',
  security: bearer,
  params: EntityParams,
  response: { 200: AdminProductSchema, ...errors(401, 403, 404, 422) },
};

export const createProduct = {
  tags,
  summary: 'Новый товар с вариантами; всё или ничего',
  security: bearer,
  body: ProductCreateBody,
  response: { 201: AdminProductSchema, ...errors(401, 403, 409, 422) },
};

export const updateProduct = {
  tags,
  summary: 'Изменить товар; hidden: false возвращает снятый товар на витрину',
  security: bearer,
  params: EntityParams,
  body: ProductPatchBody,
  response: { 200: AdminProductSchema, ...errors(401, 403, 404, 409, 422) },
};

export const hideProduct = {
  tags,
  summary: 'Снять товар с продажи: он пропадает из витрины, заказы и корзины сохраняют свои строки',
  security: bearer,
  params: EntityParams,
  response: { 200: AdminProductSchema, ...errors(401, 403, 404, 422) },
};

export const addVariant = {
  tags,
  summary: 'Новый вариант товара (цвет и размер, которых у товара ещё нет)',
  security: bearer,
  params: EntityParams,
  body: VariantBody,
  response: { 201: AdminVariantSchema, ...errors(401, 403, 404, 409, 422) },
};

export const updateVariant = {
  tags,
  summary: 'Изменить цвет, размер, цену или остаток варианта',
  security: bearer,
  params: EntityParams,
  body: VariantPatchBody,
  response: { 200: AdminVariantSchema, ...errors(401, 403, 404, 409, 422) },
};

export const deleteVariant = {
  tags,
  summary: 'Удалить вариант, которого нет в заказах (иначе 409: поставьте остаток 0)',
  security: bearer,
  params: EntityParams,
  response: { ...Deleted, ...errors(401, 403, 404, 409, 422) },
};

export const listCategories = {
  tags,
  summary: 'Категории в порядке витрины, с числом товаров',
  security: bearer,
  response: { 200: Type.Array(AdminCategorySchema), ...errors(401, 403) },
};

export const createCategory = {
  tags,
  summary: 'Новая категория (без position — в конец)',
  security: bearer,
  body: CategoryBody,
  response: { 201: AdminCategorySchema, ...errors(401, 403, 409, 422) },
};

export const updateCategory = {
  tags,
  summary: 'Переименовать категорию или изменить её место',
  security: bearer,
  params: EntityParams,
  body: CategoryPatchBody,
  response: { 200: AdminCategorySchema, ...errors(401, 403, 404, 409, 422) },
};

export const deleteCategory = {
  tags,
  summary: 'Удалить пустую категорию (с товарами, даже снятыми, — 409)',
  security: bearer,
  params: EntityParams,
  response: { ...Deleted, ...errors(401, 403, 404, 409, 422) },
};

export const listBanners = {
  tags,
  summary: 'Все баннеры, неактивные тоже, в порядке главной страницы',
  security: bearer,
  response: { 200: Type.Array(AdminBannerSchema), ...errors(401, 403) },
};

export const createBanner = {
  tags,
  summary: 'Новый баннер (без position — в конец)',
  security: bearer,
  body: BannerBody,
  response: { 201: AdminBannerSchema, ...errors(401, 403, 422) },
};

export const updateBanner = {
  tags,
  summary: 'Изменить картинку, ссылку, место или показ баннера',
  security: bearer,
  params: EntityParams,
  body: BannerPatchBody,
  response: { 200: AdminBannerSchema, ...errors(401, 403, 404, 422) },
};

export const deleteBanner = {
  tags,
  summary: 'Удалить баннер',
  security: bearer,
  params: EntityParams,
  response: { ...Deleted, ...errors(401, 403, 404, 422) },
};

export const listAudit = {
  tags,
  summary: 'Журнал изменений: кто, когда, что, до и после; новые первыми',
  security: bearer,
  querystring: AuditQuery,
  response: { 200: AuditListSchema, ...errors(401, 403, 422) },
};
