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
  PhotosBody,
  ProductCreateBody,
  ProductPatchBody,
  VariantBody,
  VariantPatchBody,
} from '../../../shared/schemas/admin-catalogue';
import { errors, managersOnly } from '../common-schemas';

const Deleted = { 204: Type.Null({ description: 'Удалено' }) };

export const listProducts = managersOnly({
  summary: 'Товары для менеджеров, снятые с продажи тоже: поиск по артикулу или названию, категория, страницы',
  querystring: AdminProductsQuery,
  response: { 200: AdminProductListSchema, ...errors(422) },
});

export const getProduct = managersOnly({
  summary: 'Товар с вариантами',
  params: EntityParams,
  response: { 200: AdminProductSchema, ...errors(404, 422) },
});

export const createProduct = managersOnly({
  summary: 'Новый товар с вариантами; всё или ничего',
  body: ProductCreateBody,
  response: { 201: AdminProductSchema, ...errors(409, 422) },
});

export const updateProduct = managersOnly({
  summary: 'Изменить товар; hidden: false возвращает снятый товар на витрину',
  params: EntityParams,
  body: ProductPatchBody,
  response: { 200: AdminProductSchema, ...errors(404, 409, 422) },
});

export const putProductPhotos = managersOnly({
  summary:
    'Заменить все фото товара: свой набор (color null) и наборы по цветам его вариантов, по порядку; ' +
    'первое фото своего набора становится картинкой товара',
  params: EntityParams,
  body: PhotosBody,
  response: { 200: AdminProductSchema, ...errors(404, 422) },
});

export const hideProduct = managersOnly({
  summary: 'Снять товар с продажи: он пропадает из витрины, заказы и корзины сохраняют свои строки',
  params: EntityParams,
  response: { 200: AdminProductSchema, ...errors(404, 422) },
});

export const addVariant = managersOnly({
  summary: 'Новый вариант товара (цвет и размер, которых у товара ещё нет)',
  params: EntityParams,
  body: VariantBody,
  response: { 201: AdminVariantSchema, ...errors(404, 409, 422) },
});

export const updateVariant = managersOnly({
  summary: 'Изменить цвет, размер, цену, остаток, штрихкод, маркировку, габариты или вес варианта',
  params: EntityParams,
  body: VariantPatchBody,
  response: { 200: AdminVariantSchema, ...errors(404, 409, 422) },
});

export const deleteVariant = managersOnly({
  summary: 'Удалить вариант, которого нет в заказах (иначе 409: поставьте остаток 0)',
  params: EntityParams,
  response: { ...Deleted, ...errors(404, 409, 422) },
});

export const listCategories = managersOnly({
  summary: 'Категории в порядке витрины, с числом товаров',
  response: { 200: Type.Array(AdminCategorySchema) },
});

export const createCategory = managersOnly({
  summary: 'Новая категория (без position — в конец)',
  body: CategoryBody,
  response: { 201: AdminCategorySchema, ...errors(409, 422) },
});

export const updateCategory = managersOnly({
  summary: 'Переименовать категорию или изменить её место',
  params: EntityParams,
  body: CategoryPatchBody,
  response: { 200: AdminCategorySchema, ...errors(404, 409, 422) },
});

export const deleteCategory = managersOnly({
  summary: 'Удалить пустую категорию (с товарами, даже снятыми, — 409)',
  params: EntityParams,
  response: { ...Deleted, ...errors(404, 409, 422) },
});

export const listBanners = managersOnly({
  summary: 'Все баннеры, неактивные тоже, в порядке главной страницы',
  response: { 200: Type.Array(AdminBannerSchema) },
});

export const createBanner = managersOnly({
  summary: 'Новый баннер (без position — в конец)',
  body: BannerBody,
  response: { 201: AdminBannerSchema, ...errors(422) },
});

export const updateBanner = managersOnly({
  summary: 'Изменить картинку, ссылку, место или показ баннера',
  params: EntityParams,
  body: BannerPatchBody,
  response: { 200: AdminBannerSchema, ...errors(404, 422) },
});

export const deleteBanner = managersOnly({
  summary: 'Удалить баннер',
  params: EntityParams,
  response: { ...Deleted, ...errors(404, 422) },
});

export const listAudit = managersOnly({
  summary: 'Журнал изменений: кто, когда, что, до и после; новые первыми',
  querystring: AuditQuery,
  response: { 200: AuditListSchema, ...errors(422) },
});
