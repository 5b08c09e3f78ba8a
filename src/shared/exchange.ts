/** The 1С exchange (CommerceML 2 over /1c_exchange): what the back office's «Обмен с 1С» shows and sets. */

/** The address 1С calls, under the shop's origin. */
export const EXCHANGE_PATH = '/1c_exchange';

/** What an exchange did, counted as it goes (exchange_runs.stats). */
export interface ExchangeRunStats {
  files?: { name: string; bytes: number }[];
  categoriesCreated?: number;
  categoriesUpdated?: number;
  productsCreated?: number;
  productsUpdated?: number;
  productsHidden?: number;
  /** Site products linked to a 1С product by their article on the first exchange: «art → Ид». */
  productsLinkedByArticle?: string[];
  variantsCreated?: number;
  variantsUpdated?: number;
  /** Site variants of a product linked by article that an offer of their colour and size took, once. */
  variantsLinked?: number;
  pricesSet?: number;
  ordersSent?: number;
  ordersUpdated?: number;
  /** Row errors that did not fail the exchange (an empty or repeated article), with file and line. */
  errors?: string[];
}

/** 1С's version of an order, when it differs from what the buyer placed (orders.one_c_document). */
export interface OneCOrderDocument {
  /** When the file that said so was applied. */
  receivedAt: string;
  number: string;
  sum: number | null;
  lines: { id: string; article: string; name: string; price: number; quantity: number; sum: number }[];
}

/** What 1С's products do that a full exchange leaves out: left as they are, or hidden. */
export const MISSING_PRODUCT_POLICIES = ['leave', 'hide'] as const;
export type MissingProductPolicy = (typeof MISSING_PRODUCT_POLICIES)[number];

/** The exchange's settings (GET/PUT /admin/exchange/settings). */
export interface ExchangeSettings {
  /** The ХарактеристикаТовара names whose values are a variant's colour and size (height, cm). */
  colorCharacteristic: string;
  sizeCharacteristic: string;
  missingProducts: MissingProductPolicy;
}

export const DEFAULT_EXCHANGE_SETTINGS: ExchangeSettings = {
  colorCharacteristic: 'Цвет',
  sizeCharacteristic: 'Размер',
  missingProducts: 'leave',
};
