// The marketplace kit's mapping, version 1: which columns each marketplace's sheet has for the
// category «Мягкие игрушки», in the order of that marketplace's upload template, in which units,
// and how the shop's values are written there. A change of a template is a new version (a new
// file, mapping-v2.ts), so a kit always says which mapping made it (README.txt, the sheets' title).
//
// Sources and assumptions, honestly: the marketplaces' templates are downloaded from the sellers'
// accounts per category and change several times a year; no public copy could be read while this
// was written. The headers below are those of the templates as sellers know them (Ozon's «Шаблон
// для загрузки товаров», Wildberries' «Шаблон загрузки карточек» of the subject «Мягкие игрушки»);
// the units are the ones the headers themselves name (Ozon: «…, мм», «…, г»; Wildberries: «…, см»,
// «…, г»). Columns the shop has no data for (Ozon's «НДС», Wildberries' «Артикул WB», prices other
// than the RRP) are left out: the seller fills them in the marketplace's own template. Headers
// marked ASSUMED below are the ones least sure to match the current template word for word.
//
// The photo columns (Ozon's main and additional photos, Wildberries' «Фото») hold the public,
// permanent addresses of the kit's own photos (GET /api/v1/image/marketplace/{file}, the same bytes
// as the ZIP's files), which the marketplaces download when the sheet is imported; the first kits
// (before 2026-11-29) held the ZIP's file names there. A photo with no such address (one of the
// shop's own pictures, or an upload older than the masters) is still named by its file. Each sheet
// ends with a column of the kit's own, PHOTO_FILES_HEADER, after every template column: the same
// photos' file names in the ZIP (issue 41 asks for them). The template columns, their order and
// what they mean to the marketplace did not change, so this stays v1 (docs/decisions.md).

import { ageLabel } from '../../shared/product-card';

/** A value the kit writes for a variant (marketplace/kit-sheets.ts says how each is made). */
export type KitField =
  | 'article'
  | 'colourArticle'
  | 'model'
  | 'name'
  | 'type'
  | 'category'
  | 'brand'
  | 'colour'
  | 'size'
  | 'description'
  | 'material'
  | 'filler'
  | 'age'
  | 'country'
  | 'barcode'
  | 'length'
  | 'width'
  | 'height'
  | 'weight'
  | 'tnved'
  | 'marked'
  | 'declaration'
  | 'certificate'
  | 'documentValidTo'
  | 'rrp'
  | 'mainPhoto'
  | 'otherPhotos'
  | 'photos'
  | 'photoFiles';

/**
 * The kit's own last column on both sheets, no template's: the photos' files in the ZIP's «фото»
 * folder, in the order the photo columns give their addresses, for a seller who uploads them.
 */
export const PHOTO_FILES_HEADER = 'Файлы фото в наборе';

export type LengthUnit = 'mm' | 'cm';
export type WeightUnit = 'g' | 'kg';

export interface KitSheet {
  /** The worksheet's name in the kit's XLSX. */
  name: string;
  units: { length: LengthUnit; weight: WeightUnit };
  columns: readonly { header: string; field: KitField }[];
}

export const MAPPING_VERSION = 'v1 (2026-11)';

/** The marketplace's own category the sheets are for. */
export const MARKETPLACE_CATEGORY = 'Мягкие игрушки';

const OZON: KitSheet = {
  name: 'Ozon',
  units: { length: 'mm', weight: 'g' },
  columns: [
    { header: 'Артикул*', field: 'article' },
    { header: 'Название товара', field: 'name' },
    { header: 'Цена до скидки, руб.', field: 'rrp' },
    { header: 'Штрихкод (Серийный номер / EAN)', field: 'barcode' },
    { header: 'Вес в упаковке, г*', field: 'weight' },
    { header: 'Ширина упаковки, мм*', field: 'width' },
    { header: 'Высота упаковки, мм*', field: 'height' },
    { header: 'Длина упаковки, мм*', field: 'length' },
    // Addresses the marketplace downloads from, as the template wants (see above).
    { header: 'Ссылка на главное фото*', field: 'mainPhoto' },
    { header: 'Ссылки на дополнительные фото', field: 'otherPhotos' },
    { header: 'Бренд*', field: 'brand' },
    { header: 'Объединить на одной карточке*', field: 'model' },
    { header: 'Цвет товара*', field: 'colour' },
    { header: 'Тип*', field: 'type' },
    // ASSUMED: the shop's size is the toy's height in centimetres.
    { header: 'Высота игрушки, см', field: 'size' },
    { header: 'Минимальный возраст ребенка', field: 'age' },
    { header: 'Материал', field: 'material' },
    // ASSUMED header.
    { header: 'Материал наполнителя', field: 'filler' },
    { header: 'Аннотация', field: 'description' },
    { header: 'Страна-изготовитель', field: 'country' },
    { header: 'ТН ВЭД коды ЕАЭС', field: 'tnved' },
    // ASSUMED header: Ozon asks whether the goods are under Честный знак marking.
    { header: 'Маркировка «Честный знак»', field: 'marked' },
    { header: 'Номер декларации соответствия', field: 'declaration' },
    { header: 'Номер сертификата соответствия', field: 'certificate' },
    { header: 'Категория в магазине-поставщике', field: 'category' },
    { header: PHOTO_FILES_HEADER, field: 'photoFiles' },
  ],
};

const WILDBERRIES: KitSheet = {
  name: 'Wildberries',
  units: { length: 'cm', weight: 'g' },
  columns: [
    // A Wildberries card is one colour; its sizes are its rows, each with its own barcode.
    { header: 'Артикул продавца', field: 'colourArticle' },
    { header: 'Предмет', field: 'type' },
    { header: 'Наименование', field: 'name' },
    { header: 'Бренд', field: 'brand' },
    { header: 'Описание', field: 'description' },
    { header: 'Цвет', field: 'colour' },
    // ASSUMED: toys take the height in centimetres as the size.
    { header: 'Размер', field: 'size' },
    { header: 'Баркод', field: 'barcode' },
    { header: 'Цена', field: 'rrp' },
    { header: 'Длина упаковки, см', field: 'length' },
    { header: 'Ширина упаковки, см', field: 'width' },
    { header: 'Высота упаковки, см', field: 'height' },
    // ASSUMED: newer templates ask the gross weight in kilograms («Вес с упаковкой (кг)»); this
    // version keeps the grams the subject's characteristic names.
    { header: 'Вес товара с упаковкой (г)', field: 'weight' },
    { header: 'Материал изделия', field: 'material' },
    { header: 'Наполнитель', field: 'filler' },
    { header: 'Возраст ребенка', field: 'age' },
    { header: 'Страна производства', field: 'country' },
    { header: 'ТНВЭД', field: 'tnved' },
    { header: 'Номер декларации соответствия', field: 'declaration' },
    { header: 'Номер сертификата соответствия', field: 'certificate' },
    { header: 'Дата окончания действия сертификата/декларации', field: 'documentValidTo' },
    { header: 'Фото', field: 'photos' },
    { header: 'Артикул поставщика (модель)', field: 'model' },
    { header: PHOTO_FILES_HEADER, field: 'photoFiles' },
  ],
};

export const KIT_SHEETS: readonly KitSheet[] = [OZON, WILDBERRIES];

/** The marketplaces' type of product for the category (Ozon's «Тип», Wildberries' «Предмет»). */
export const PRODUCT_TYPE = 'Мягкая игрушка';

export const YES_NO = { yes: 'Да', no: 'Нет' } as const;

/**
 * Countries as the marketplaces' dictionaries name them, from the spellings 1С and managers use;
 * a country not here is written as the shop keeps it.
 */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  кнр: 'Китай',
  china: 'Китай',
  рф: 'Россия',
  'российская федерация': 'Россия',
  russia: 'Россия',
  белоруссия: 'Беларусь',
  'республика беларусь': 'Беларусь',
  belarus: 'Беларусь',
  узбекистан: 'Узбекистан',
  turkey: 'Турция',
  турция: 'Турция',
  вьетнам: 'Вьетнам',
  vietnam: 'Вьетнам',
};

/**
 * The youngest age as both templates' dictionaries write it: the shop's own label (one plural rule
 * for the whole shop), only «С рождения» capitalised as the dictionaries have it: «от 1 года», «от 3 лет».
 */
export const marketplaceAge = (years: number): string => ageLabel(years).replace(/^с /, 'С ');
