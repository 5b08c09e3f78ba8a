/**
 * What the CommerceML 2 readers (commerceml/) hand the exchange's services, and what the order
 * writer is given: plain records, as 1С wrote them (strings trimmed, numbers parsed), nothing
 * mapped to the shop yet. The readers stream: a file of hundreds of MB arrives record by record.
 */

/** A line of an exchange file the reader refused, for «failure» and the exchange's log. */
export class CommerceMlError extends Error {
  constructor(
    /** The file's name as 1С sent it (import.xml, offers0_1.xml). */
    readonly file: string,
    /** 1-based line of the file, null when the file ended too soon to say. */
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line === null ? '' : `, строка ${line}`}: ${reason}`);
    this.name = 'CommerceMlError';
  }
}

/** A Группа of the Классификатор; `path` its names from the top group down, its own last. */
export interface GroupRecord {
  kind: 'group';
  id: string;
  name: string;
  parentId: string | null;
  path: string[];
}

/** A name and value pair: a ЗначениеРеквизита, or a ХарактеристикаТовара («Цвет игрушки» → «Бежевый»). */
export interface NamedValue {
  name: string;
  value: string;
}

/** A Товар of the Каталог (import.xml). */
export interface ProductRecord {
  kind: 'product';
  /** Its Ид: a GUID, or `товар#характеристика` when 1С sends characteristics as products. */
  id: string;
  /** Артикул; '' when absent. */
  article: string;
  name: string;
  /** Описание as sent (plain text, or HTML when its ФорматHTML="true"). */
  description: string;
  descriptionIsHtml: boolean;
  /** The Ид of its Группы (usually one). */
  groupIds: string[];
  /** Картинка paths, relative to the exchange folder (import_files/…), in order. */
  pictures: string[];
  /** Штрихкод; '' when absent. */
  barcode: string;
  /** ХарактеристикиТовара given on the product itself (some configurations put them here). */
  characteristics: NamedValue[];
  /** ЗначенияРеквизитов (ВидНоменклатуры, Полное наименование, …). */
  requisites: NamedValue[];
  /** ЗначенияСвойств, each value resolved through the Классификатор's Справочник when it is one. */
  properties: NamedValue[];
  /** БазоваяЕдиница's Пересчет/Коэффициент when above 1 (pieces in the carton), else null. */
  unitCoefficient: number | null;
  /** ПометкаУдаления="true", or Статус="Удален". */
  deleted: boolean;
  /** 1-based line of the file where the Товар begins, for the exchange's row errors. */
  line?: number;
}

/** The Каталог's header, read before its first Товар. */
export interface CatalogueHeader {
  kind: 'catalogue';
  id: string;
  /** СодержитТолькоИзменения="true" (attribute, or the element of 2.04–2.07). */
  changesOnly: boolean;
}

export type ImportRecord = CatalogueHeader | GroupRecord | ProductRecord;

/** A ТипЦены of the ПакетПредложений. */
export interface PriceTypeRecord {
  kind: 'price-type';
  id: string;
  name: string;
  currency: string;
  /** Налог/УчтеноВСумме: whether the type's prices include the tax (null: no Налог given). */
  taxIncluded: boolean | null;
}

export interface WarehouseRecord {
  kind: 'warehouse';
  id: string;
  name: string;
}

export interface OfferPrice {
  priceTypeId: string;
  /** ЦенаЗаЕдиницу, a piece's price when `coefficient` is 1. */
  unitPrice: number;
  currency: string;
  /** Коэффициент of the price's unit: the price is for that many pieces. */
  coefficient: number;
}

/** A Предложение (offers.xml, prices*.xml, rests*.xml): one variant. */
export interface OfferRecord {
  kind: 'offer';
  /** `товар#характеристика`, or the product's Ид alone for a product of one variant. */
  id: string;
  productId: string;
  /** The part after `#`, null without one. */
  characteristicId: string | null;
  article: string;
  name: string;
  barcode: string;
  characteristics: NamedValue[];
  /** Absent (null) in a rests file, which carries only quantities. */
  prices: OfferPrice[] | null;
  /** Количество, null when the file gives none (a prices file). */
  quantity: number | null;
  /** Per Склад (КоличествоНаСкладе of 2.08 or Остатки/Остаток/Склад of 2.10); [] when not given. */
  warehouses: { warehouseId: string; quantity: number }[];
  unitCoefficient: number | null;
  deleted: boolean;
  /** 1-based line of the file where the Предложение begins, for the exchange's row errors. */
  line?: number;
}

/** The ПакетПредложений's header, read before its first Предложение. */
export interface OffersHeader {
  kind: 'offers';
  id: string;
  changesOnly: boolean;
}

export type OffersRecord = OffersHeader | PriceTypeRecord | WarehouseRecord | OfferRecord;

/** A Документ of an orders file 1С sends back (type=sale&mode=file). */
export interface OrderDocumentRecord {
  kind: 'order';
  /** Ид as the shop sent it (the order's id), or 1С's own when 1С made the document. */
  id: string;
  /** Номер: the shop's order number as sent. */
  number: string;
  date: string;
  sum: number | null;
  /** ЗначенияРеквизитов: «Дата оплаты по 1С», «Дата отгрузки по 1С», «Проведен», «ПометкаУдаления», «Статус заказа»… */
  requisites: NamedValue[];
  lines: {
    /** 1С's Ид of the goods (`товар#характеристика` or the product's). */
    id: string;
    article: string;
    name: string;
    price: number;
    quantity: number;
    sum: number;
  }[];
}

/** What the order writer is given for each order the shop sends to 1С. */
export interface OrderForExchange {
  id: number;
  /** Номер as the buyer and the shop know it. */
  number: string;
  createdAt: Date;
  status: string;
  paid: boolean;
  cancelled: boolean;
  total: number;
  comment: string | null;
  deliveryAddress: string;
  contact: { name: string | null; phone: string | null; email: string | null };
  /** The order's legal entity: null for an order placed without one (then the company's name is sent). */
  legalEntity: {
    id: string;
    name: string;
    fullName: string;
    inn: string | null;
    kpp: string | null;
    address: string | null;
  } | null;
  companyName: string;
  lines: {
    /** 1С's `товар#характеристика` when the variant came from 1С, else null (the article is sent). */
    externalId: string | null;
    article: string;
    name: string;
    price: number;
    quantity: number;
    sum: number;
  }[];
}
