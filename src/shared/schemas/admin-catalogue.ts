import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { CATALOGUE_LIMITS } from '../catalogue';
import { Defaulted, Id, Nullable, PageQuery } from './common';
import { PackagingFields } from './products';
import { MAX_MULTIPLE } from '../pricing';
import { ProductTiersSchema, VariantPriceSchema } from './price-types';
import { PRODUCT_CARD_LIMITS } from '../product-card';

// The back office's catalogue API (/api/v1/admin/products, variants, categories, banners, images,
// catalogue export/import, audit). Messages for bad values are Russian and come from the handlers
// where a shape alone cannot say what is wrong (kopecks, a unique article).

const Art = Type.String({ minLength: 1, maxLength: LIMITS.artMax, description: 'Артикул' });
const ProductName = Type.String({ minLength: 1, maxLength: LIMITS.nameMax });
const LongText = Nullable(Type.String({ maxLength: CATALOGUE_LIMITS.textMax }));
const Color = Type.String({ minLength: 1, maxLength: CATALOGUE_LIMITS.colorMax });
const Size = Type.Integer({
  minimum: CATALOGUE_LIMITS.sizeMin,
  maximum: CATALOGUE_LIMITS.sizeMax,
  description: 'Размер, см',
});
const Price = Type.Number({
  exclusiveMinimum: 0,
  maximum: CATALOGUE_LIMITS.priceMax,
  description: 'Цена, ₽, с копейками',
});
const Stock = Type.Integer({ minimum: 0, maximum: CATALOGUE_LIMITS.stockMax, description: 'Остаток, шт.' });
const IMAGE_NAME = { minLength: 1, maxLength: 128, description: 'Имя из POST /api/v1/admin/images' };
const ImageName = Type.String(IMAGE_NAME);
const CategoryName = Type.String({ minLength: 1, maxLength: CATALOGUE_LIMITS.categoryNameMax });

// A marketplace card's data (issue 41): the product's texts and codes, each variant's barcode,
// marking, package and weight, and the photos per colour.
const CardText = (description: string) =>
  Nullable(Type.String({ maxLength: PRODUCT_CARD_LIMITS.textMax, description: `${description}; пусто — не указано` }));
const PackageSide = (description: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: PRODUCT_CARD_LIMITS.sideCmMax,
    description: `${description} упаковки, см (не больше одного знака после запятой)`,
  });
const PackageSchema = Nullable(
  Type.Object({ length_cm: PackageSide('Длина'), width_cm: PackageSide('Ширина'), height_cm: PackageSide('Высота') }),
  { description: 'Габариты упаковки; null — не указаны' },
);
const WeightG = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: PRODUCT_CARD_LIMITS.weightGMax,
    description: 'Вес с упаковкой, г; null — не указан',
  }),
);
const Barcode = Nullable(
  Type.String({
    maxLength: PRODUCT_CARD_LIMITS.barcodeMax,
    description: 'Штрихкод EAN-13 (проверяется контрольная цифра и уникальность); null или пусто — без штрихкода',
  }),
);

const VariantCardFields = {
  barcode: Barcode,
  marked: Type.Boolean({ description: 'Подлежит маркировке «Честный знак»' }),
  package: PackageSchema,
  weight_g: WeightG,
};

export const AdminVariantSchema = Type.Object({
  id: Type.Integer(),
  color: Type.String(),
  size: Type.Integer(),
  price: Type.Number({ description: 'Цена типа по умолчанию, ₽' }),
  stock: Type.Integer(),
  prices: Type.Array(VariantPriceSchema, { description: 'Цены и цены по количеству по типам цен' }),
  ...VariantCardFields,
  barcode_kind: Nullable(
    Type.Union([Type.Literal('gtin'), Type.Literal('internal')], {
      description: 'gtin — штрихкод для маркетплейса; internal — внутренний или коробочный код из 1С',
    }),
  ),
});

const ProductCardFields = {
  brand: CardText('Бренд'),
  material: CardText('Материал'),
  filler: CardText('Наполнитель'),
  age_from: Nullable(
    Type.Integer({ minimum: 0, maximum: PRODUCT_CARD_LIMITS.ageFromMax, description: 'Возраст от, лет' }),
  ),
  country_of_origin: CardText('Страна производства'),
  tnved: Nullable(
    Type.String({ maxLength: 20, description: 'Код ТН ВЭД ЕАЭС, 10 цифр (пробелы между группами допустимы)' }),
  ),
  conformity_document_id: Nullable(Id, { description: 'Сертификат или декларация соответствия' }),
};

export const PhotoSchema = Type.Object({
  name: Type.String({ description: 'Имя для GET /api/v1/image/{name}' }),
  width: Nullable(Type.Integer({ description: 'Показываемой копии; null — файл магазина' })),
  height: Nullable(Type.Integer()),
  master_width: Nullable(Type.Integer({ description: 'Копии высокого качества; null — её нет' })),
  master_height: Nullable(Type.Integer()),
  small_for_marketplace: Type.Boolean({
    description: 'Меньше 900×1200 даже с полями до 3:4 (или без копии высокого качества): маркетплейс может не принять',
  }),
});

const PhotoColor = Nullable(
  Type.String({
    minLength: 1,
    maxLength: CATALOGUE_LIMITS.colorMax,
    description: 'Цвет вариантов; null — фото товара',
  }),
);

export const PhotoSetSchema = Type.Object({ color: PhotoColor, images: Type.Array(PhotoSchema) });

export const AdminProductSchema = Type.Object({
  id: Type.Integer(),
  art: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  big_description: Nullable(Type.String()),
  category: Type.String(),
  popular: Type.Boolean({ description: 'Показывать первым среди популярных' }),
  image: Type.String(),
  hidden: Type.Boolean({ description: 'Удалён из витрины' }),
  ...PackagingFields,
  tiers: Type.Array(ProductTiersSchema, { description: 'Цены по количеству модели по типам цен' }),
  ...ProductCardFields,
  photos: Type.Array(PhotoSetSchema, { description: 'Фото товара (color null) и фото по цветам; первое — обложка' }),
  variants: Type.Array(AdminVariantSchema),
});

export const AdminProductsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Артикул или часть названия' })),
  category: Type.Optional(CategoryName),
  ...PageQuery.properties,
});

export const AdminProductListSchema = Type.Object({ items: Type.Array(AdminProductSchema), total: Type.Integer() });

export const VariantBody = Type.Object({
  color: Color,
  size: Size,
  price: Price,
  stock: Stock,
  ...Type.Partial(Type.Object(VariantCardFields)).properties,
});
export const VariantPatchBody = Type.Partial(VariantBody, { minProperties: 1 });

export const ProductCreateBody = Type.Object({
  art: Art,
  name: ProductName,
  description: Type.Optional(LongText),
  big_description: Type.Optional(LongText),
  category: CategoryName,
  popular: Type.Optional(Type.Boolean()),
  image: Type.Optional(
    Type.String({ ...IMAGE_NAME, description: `${IMAGE_NAME.description}; без неё — заглушка «Фото скоро появится»` }),
  ),
  ...Type.Partial(Type.Object(ProductCardFields)).properties,
  variants: Type.Array(VariantBody, { minItems: 1, maxItems: 500 }),
});

export const PhotosBody = Type.Array(
  Type.Object({
    color: PhotoColor,
    images: Type.Array(ImageName, {
      maxItems: PRODUCT_CARD_LIMITS.photosMax,
      description: 'По порядку; первое — обложка',
    }),
  }),
  { maxItems: 200, description: 'Все наборы фото товара: чего нет в списке, удаляется' },
);

export const ProductPatchBody = Type.Partial(
  Type.Object({
    ...Type.Omit(ProductCreateBody, ['variants']).properties,
    // The way back for a product hidden by DELETE (and the same as DELETE when true).
    hidden: Type.Boolean({ description: 'Снять с витрины (true) или вернуть на витрину (false)' }),
    multiple: Type.Integer({ minimum: 1, maximum: MAX_MULTIPLE, description: 'Кратность, шт.' }),
    min_quantity: Type.Integer({
      minimum: 1,
      maximum: MAX_MULTIPLE,
      description: 'Минимум в строке, шт. (кратен кратности)',
    }),
  }),
  { minProperties: 1 },
);

export const AdminCategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer(),
  products_count: Type.Integer({ description: 'Товаров в категории, скрытые тоже' }),
});
export const CategoryBody = Type.Object({
  name: CategoryName,
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: CATALOGUE_LIMITS.positionMax })),
});
export const CategoryPatchBody = Type.Partial(CategoryBody, { minProperties: 1 });

export const AdminBannerSchema = Type.Object({
  id: Type.Integer(),
  image: Type.String(),
  url: Nullable(Type.String()),
  position: Type.Integer(),
  active: Type.Boolean(),
});
export const BannerBody = Type.Object({
  image: ImageName,
  url: Type.Optional(Nullable(Type.String({ maxLength: CATALOGUE_LIMITS.urlMax }))),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: CATALOGUE_LIMITS.positionMax })),
  active: Type.Optional(Type.Boolean()),
});
export const BannerPatchBody = Type.Partial(BannerBody, { minProperties: 1 });

export const EntityParams = Type.Object({ id: Id });

export const UploadedImageSchema = Type.Object({
  name: Type.String({ description: 'Имя для GET /api/v1/image/{name}' }),
  width: Type.Integer(),
  height: Type.Integer(),
  master: Type.Object(
    { width: Type.Integer(), height: Type.Integer() },
    { description: 'Копия высокого качества для маркетплейсов (JPEG, не больше 3000×3000)' },
  ),
  small_for_marketplace: Type.Boolean({
    description: 'Копия меньше 900×1200 даже с полями до 3:4: маркетплейс может не принять',
  }),
});

export const CATALOGUE_FORMATS = ['xlsx', 'csv'] as const;
/**
 * The price list's columns every file has, the only ones of a file from before price types: «Цена»
 * is the default type's. The export writes a column per other price type after «Цена», headed
 * `Цена «Название» [код]` (the import finds the type by its code), then the packaging's columns,
 * and «Остаток» last; the import takes the columns in any order.
 */
export const PRICE_LIST_COLUMNS = ['Артикул', 'Название', 'Категория', 'Цвет', 'Размер', 'Цена', 'Остаток'] as const;
/** The product's кратность and minimum: a file has both or neither (then the products' stay as they are). */
export const PRICE_LIST_PACKAGING_COLUMNS = ['Кратность', 'Минимум'] as const;

export const ExportQuery = Type.Object({ format: Defaulted(Type.Enum(CATALOGUE_FORMATS, { default: 'xlsx' })) });
export const ImportQuery = Type.Object({ dry_run: Defaulted(Type.Boolean({ default: true })) });

export const ImportResultSchema = Type.Object({
  dry_run: Type.Boolean(),
  created: Type.Integer({ description: 'Новых вариантов (и товаров)' }),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  new_products: Type.Integer({ description: 'Новых товаров (артикулов) среди новых вариантов' }),
  errors: Type.Array(
    Type.Object({ row: Type.Integer({ description: 'Номер строки в файле' }), detail: Type.String() }),
  ),
  preview: Nullable(
    Type.Object(
      {
        id: Type.String({ description: 'Для GET …/import/previews/{id}/changes и POST …/import/previews/{id}/apply' }),
        expires_at: Type.String({ format: 'date-time' }),
      },
      { description: 'Сохранённая проверка без ошибок, в которой что-то меняется; иначе null' },
    ),
  ),
});

export const PreviewParams = Type.Object({
  id: Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'preview.id из ответа проверки',
  }),
});

export const PreviewSummarySchema = Type.Object({
  id: Type.String(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  new_products: Type.Integer(),
  expires_at: Type.String({ format: 'date-time' }),
});

export const PreviewChangeSchema = Type.Object({
  row: Type.Integer({ description: 'Номер строки в файле' }),
  kind: Type.Union([Type.Literal('created'), Type.Literal('updated')], {
    description: 'created — новый вариант, updated — изменённый',
  }),
  new_product: Type.Boolean({ description: 'Артикула в каталоге ещё нет' }),
  art: Type.String(),
  name: Type.String(),
  category: Type.String(),
  color: Type.String(),
  size: Type.Integer(),
  price: Type.Number(),
  stock: Type.Integer(),
  old_name: Nullable(Type.String({ description: 'Было; null у нового варианта' })),
  old_category: Nullable(Type.String()),
  old_price: Nullable(Type.Number()),
  old_stock: Nullable(Type.Integer()),
  prices: Type.Array(
    Type.Object({
      code: Type.String({ description: 'Код типа цен' }),
      price: Nullable(
        Type.Number({
          description: 'Станет; null — своей цены этого типа не будет (действует цена типа по умолчанию)',
        }),
      ),
      old_price: Nullable(Type.Number({ description: 'Было; null — своей цены не было, или вариант новый' })),
    }),
    { description: 'Цены типов из столбцов файла, в порядке price_types' },
  ),
  multiple: Nullable(
    Type.Integer({ description: 'Кратность товара; null — в файле нет столбцов кратности и минимума' }),
  ),
  min_quantity: Nullable(Type.Integer()),
  old_multiple: Nullable(Type.Integer({ description: 'Было у товара; null у нового товара или без этих столбцов' })),
  old_min_quantity: Nullable(Type.Integer()),
  card_changes: Type.Array(
    Type.Object({
      column: Type.String({ description: 'Столбец прайс-листа: «Бренд», «Штрихкод», «Вес, г»…' }),
      old_value: Nullable(Type.String({ description: 'Было, как пишет прайс-лист (12,5; да); null — пусто' })),
      value: Nullable(Type.String({ description: 'Станет; null — пусто' })),
    }),
    {
      description:
        'Поля карточки для маркетплейсов, которые строка меняет, в порядке столбцов: товара, затем варианта. У нового варианта — только поля товара, если он уже есть; столбца, которого нет в файле, здесь нет',
    },
  ),
});
export const PreviewChangesSchema = Type.Object({
  price_types: Type.Array(Type.Object({ code: Type.String(), name: Type.String() }), {
    description: 'Типы цен, для которых в файле есть столбцы (название — нынешнее)',
  }),
  packaging: Type.Boolean({ description: 'В файле есть столбцы «Кратность» и «Минимум»' }),
  card: Type.Boolean({ description: 'В файле есть столбцы карточки для маркетплейсов («Бренд», «Штрихкод»…)' }),
  items: Type.Array(PreviewChangeSchema),
  total: Type.Integer({ description: 'Изменённых и новых строк всего' }),
});
export const PreviewChangesQuery = PageQuery;

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  by: Nullable(Type.Object({ id: Type.Integer(), email: Type.String() })),
  action: Type.String(),
  entity: Type.String(),
  entity_id: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export const AuditListSchema = Type.Object({ items: Type.Array(AuditEntrySchema), total: Type.Integer() });
export const AuditQuery = PageQuery;
