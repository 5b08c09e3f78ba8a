// The contract between the storefront and the API server (SPEC §3, §5, §9): both halves import
// these types and constants so that a change to the wire format is one change, seen by both.

import type { Static } from 'typebox';
import type { AddressBody, AddressSchema } from './schemas/address';
import type { DownloadLinkBody, DownloadLinkSchema } from './schemas/marketplace-kit';
import type {
  AdminBuyerAnswer,
  AdminOrderListSchema,
  AdminOrderSchema,
  AdminOrdersQuery,
  AdminStatusChangeBody,
} from './schemas/admin';
import type {
  AdminBannerSchema,
  AdminCategorySchema,
  AdminProductListSchema,
  AdminProductSchema,
  AdminProductsQuery,
  AdminVariantSchema,
  AuditListSchema,
  BannerBody,
  BannerPatchBody,
  CategoryBody,
  CategoryPatchBody,
  ImportResultSchema,
  PhotosBody,
  PhotoSetSchema,
  PreviewChangesSchema,
  ProductCreateBody,
  ProductPatchBody,
  UploadedImageSchema,
  VariantBody,
  VariantPatchBody,
} from './schemas/admin-catalogue';
import type { CurrentUserSchema, TokenSchema, UserSchema } from './schemas/auth';
import type {
  ConformityDocumentFieldsBody,
  ConformityDocumentPatchBody,
  ConformityDocumentSchema,
  ConformityProductSchema,
} from './schemas/conformity-documents';
import type {
  ExchangeAccountSchema,
  ExchangeOverviewSchema,
  ExchangePriceTypeSchema,
  ExchangeResendSchema,
  ExchangeRunListSchema,
  ExchangeRunSchema,
  ExchangeSettingsSchema,
  ExchangeWarehouseSchema,
} from './schemas/exchange';
import type {
  PriceTypeBody,
  PriceTypePatchBody,
  PriceTypeSchema,
  ProductPricesBody,
  StorefrontSettingsSchema,
  VariantPricesBody,
} from './schemas/price-types';
import type {
  CartAddBody,
  CartBulkBody,
  CartBulkLine,
  CartCountConflictSchema,
  CartImportLineSchema,
  CartImportResultSchema,
  CartItemSchema,
  CartSchema,
} from './schemas/cart';
import type { ErrorSchema } from './schemas/common';
import type {
  BuyerOrderSchema,
  OneCDocumentSchema,
  OrderLineSchema,
  TrackingSchema,
  InvoiceRefSchema,
  OrderCreateBody,
  OrderItemSchema,
  OrderStatusSchema,
  OrderSummarySchema,
  BuyerOrdersQuery,
  PlacedBySchema,
} from './schemas/order';
import type {
  BannerSchema,
  CatalogueFiltersQuery,
  ProductPageSchema,
  ProductSchema,
  VariantCardSchema,
  VariantSchema,
} from './schemas/products';
import type { RequisitesBody, RequisitesSaveBody, RequisitesSchema } from './schemas/requisites';
import type {
  AdminCompaniesQuery,
  AdminCompanyListSchema,
  AdminCompanyPatchBody,
  AdminCompanySchema,
  CompanyFeedIssuedSchema,
  CompanyFeedSchema,
  CompanySchema,
  InvitationAcceptBody,
  InvitationAcceptedSchema,
  InvitationBody,
  InvitationPreviewSchema,
  InvitationSchema,
  LegalEntityBody,
  LegalEntityPatchBody,
  LegalEntitySchema,
  ManagerContactSchema,
  MemberSchema,
  StaffProfileBody,
  StaffProfileSchema,
} from './schemas/company';

export const API_PREFIX = 'api/v1/';

export const TIMINGS = {
  bannerSlideMs: 5000,
  bannerTransitionMs: 500,
  // SPEC §9 also says the cart reloads about 600 ms after a change: the reload follows the save
  // that the debounce sends (see features/cart/cartEditsSlice.ts), so it needs no timer of its own.
  cartDebounceMs: 500,
} as const;

export const STORAGE_KEYS = {
  accessToken: 'access_token',
  selectedCategory: 'selectedCategory',
  colourMode: 'colourMode',
} as const;

/** The basic e-mail shape of SPEC §5: something@domain.zone, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A cookie readable by the storefront that lives exactly as long as the HttpOnly refresh cookie:
 * its presence tells the storefront a refresh can succeed, so visitors never send one that must fail.
 */
export const SESSION_HINT_COOKIE = 'session_hint';

/** SPEC §5: fetching a product by an empty article fails with this (the catalogue's reads, in the first load). */
export const ART_INVALID = 'Некорректный формат артикула';

/**
 * The labels the storefront's forms give the API's fields: the server names a field this way in a
 * validation message a buyer may see (never «contact_name»).
 */
export const FIELD_LABELS: Record<string, string> = {
  contact_name: 'Имя',
  contact_phone: 'Телефон',
  company_name: 'Название компании',
  company_inn: 'ИНН',
  company_kpp: 'КПП',
  address: 'Адрес доставки',
  country: 'Страна',
  city: 'Город',
  street: 'Улица',
  home_number: 'Дом',
  apartment_number: 'Квартира',
  count: 'Количество',
  quantity: 'Количество',
  // The catalogue's filters (its toolbar's labels).
  sort: 'Сортировка',
  color: 'Цвет',
  size_min: 'Размер от',
  size_max: 'Размер до',
  price_min: 'Цена от',
  price_max: 'Цена до',
  in_stock: 'В наличии',
};

// The wire shapes are the TypeBox schemas the server validates with (src/shared/schemas/); these
// types are derived from them. Type-only imports: the storefront's bundle gets no TypeBox code.
export type Variant = Static<typeof VariantSchema>;
export type DownloadLink = Static<typeof DownloadLinkSchema>;
export type DownloadLinkRequest = Static<typeof DownloadLinkBody>;
export type PriceType = Static<typeof PriceTypeSchema>;
export type PriceTypeFields = Static<typeof PriceTypeBody>;
export type PriceTypePatch = Static<typeof PriceTypePatchBody>;
export type VariantPrices = Static<typeof VariantPricesBody>;
export type ProductPrices = Static<typeof ProductPricesBody>;
export type StorefrontSettings = Static<typeof StorefrontSettingsSchema>;
export type ExchangeSettingsBody = Static<typeof ExchangeSettingsSchema>;
export type ExchangeAccount = Static<typeof ExchangeAccountSchema>;
export type ExchangePriceType = Static<typeof ExchangePriceTypeSchema>;
export type ExchangeWarehouse = Static<typeof ExchangeWarehouseSchema>;
export type ExchangeOverview = Static<typeof ExchangeOverviewSchema>;
export type ExchangeRun = Static<typeof ExchangeRunSchema>;
export type ExchangeRunList = Static<typeof ExchangeRunListSchema>;
export type ExchangeResendResult = Static<typeof ExchangeResendSchema>;
export type Product = Static<typeof ProductSchema>;
/** The product page's answer: photos per colour and what a marketplace card needs (issue 41). */
export type ProductPage = Static<typeof ProductPageSchema>;
export type VariantCard = Static<typeof VariantCardSchema>;
export type Banner = Static<typeof BannerSchema>;
/** The catalogue's optional filters and order: the same parameters in the API's query and the /catalog address. */
export type CatalogueFilters = Static<typeof CatalogueFiltersQuery>;
export type CartItem = Static<typeof CartItemSchema>;
export type Cart = Static<typeof CartSchema>;
export type CartAddPayload = Static<typeof CartAddBody>;
export type CartBulkLinePayload = Static<typeof CartBulkLine>;
export type CartBulkPayload = Static<typeof CartBulkBody>;
export type CartCountConflict = Static<typeof CartCountConflictSchema>;
export type CartImportLine = Static<typeof CartImportLineSchema>;
export type CartImportResult = Static<typeof CartImportResultSchema>;
export type User = Static<typeof UserSchema>;
export type CurrentUser = Static<typeof CurrentUserSchema>;
export type AdminOrdersFilter = Static<typeof AdminOrdersQuery>;
export type AdminOrderList = Static<typeof AdminOrderListSchema>;
export type AdminOrder = Static<typeof AdminOrderSchema>;
export type OneCDocumentView = Static<typeof OneCDocumentSchema>;
export type AdminStatusChange = Static<typeof AdminStatusChangeBody>;
export type AdminBuyer = Static<typeof AdminBuyerAnswer>;
export type AdminProduct = Static<typeof AdminProductSchema>;
export type AdminVariant = Static<typeof AdminVariantSchema>;
export type AdminProductsFilter = Static<typeof AdminProductsQuery>;
export type AdminProductList = Static<typeof AdminProductListSchema>;
export type ProductCreate = Static<typeof ProductCreateBody>;
export type ProductPatch = Static<typeof ProductPatchBody>;
export type VariantFields = Static<typeof VariantBody>;
export type VariantPatch = Static<typeof VariantPatchBody>;
export type AdminCategory = Static<typeof AdminCategorySchema>;
export type CategoryFields = Static<typeof CategoryBody>;
export type CategoryPatch = Static<typeof CategoryPatchBody>;
export type AdminBanner = Static<typeof AdminBannerSchema>;
export type BannerFields = Static<typeof BannerBody>;
export type BannerPatch = Static<typeof BannerPatchBody>;
export type UploadedImage = Static<typeof UploadedImageSchema>;
export type PhotoSet = Static<typeof PhotoSetSchema>;
export type Photo = PhotoSet['images'][number];
export type PhotosChange = Static<typeof PhotosBody>;
export type ConformityDocument = Static<typeof ConformityDocumentSchema>;
export type ConformityDocumentFields = Static<typeof ConformityDocumentFieldsBody>;
export type ConformityDocumentPatch = Static<typeof ConformityDocumentPatchBody>;
export type ConformityProduct = Static<typeof ConformityProductSchema>;
export type ImportResult = Static<typeof ImportResultSchema>;
export type PreviewChanges = Static<typeof PreviewChangesSchema>;
export type PreviewChange = PreviewChanges['items'][number];
export type AuditList = Static<typeof AuditListSchema>;
export type InvoiceRef = Static<typeof InvoiceRefSchema>;
export type TokenResponse = Static<typeof TokenSchema>;
export type OrderItemPayload = Static<typeof OrderItemSchema>;
export type OrderCreatePayload = Static<typeof OrderCreateBody>;
export type OrderSummary = Static<typeof OrderSummarySchema>;
/** The company's orders' filters and page (GET /api/v1/order/{user_id}). */
export type BuyerOrdersFilter = Static<typeof BuyerOrdersQuery>;
export type PlacedBy = Static<typeof PlacedBySchema>;
/** The buyer's own order, whole (the profile's order page). */
export type BuyerOrder = Static<typeof BuyerOrderSchema>;
/** An order's line as the buyer and the back office read it. */
export type OrderLine = Static<typeof OrderLineSchema>;
/** How «Отправлен» went: the carrier, the tracking number and the carrier's page for it. */
export type Tracking = Static<typeof TrackingSchema>;
export type OrderStatusAnswer = Static<typeof OrderStatusSchema>;
/** What the buyer sends to create or change an address. */
export type AddressFields = Static<typeof AddressBody>;
export type Address = Static<typeof AddressSchema>;
/** An address as the server saves it: its fields without the owner, the flat number null when none. */
export type AddressInput = Omit<Address, 'id' | 'user_id'>;
export type ErrorAnswer = Static<typeof ErrorSchema>;
/** The buyer's company and contact details, kept for the next checkout (null: not given). */
export type Requisites = Static<typeof RequisitesSchema>;
export type RequisitesFields = Static<typeof RequisitesBody>;
/** PUT /api/v1/requisites/{user_id}: the contact fields and the company's default legal entity. */
export type RequisitesSave = Static<typeof RequisitesSaveBody>;
/** The company (контрагент) the account works for, as its employees see it (GET /api/v1/company). */
export type Company = Static<typeof CompanySchema>;
export type CompanyMember = Static<typeof MemberSchema>;
/** GET /api/v1/company/feed: whether the company has a secret feed address. */
export type CompanyFeed = Static<typeof CompanyFeedSchema>;
/** POST /api/v1/company/feed: the new address, shown once. */
export type CompanyFeedIssued = Static<typeof CompanyFeedIssuedSchema>;
export type LegalEntity = Static<typeof LegalEntitySchema>;
export type LegalEntityFields = Static<typeof LegalEntityBody>;
export type LegalEntityPatch = Static<typeof LegalEntityPatchBody>;
export type ManagerContact = Static<typeof ManagerContactSchema>;
export type Invitation = Static<typeof InvitationSchema>;
export type InvitationFields = Static<typeof InvitationBody>;
export type InvitationPreview = Static<typeof InvitationPreviewSchema>;
export type InvitationAccept = Static<typeof InvitationAcceptBody>;
export type InvitationAccepted = Static<typeof InvitationAcceptedSchema>;
export type AdminCompaniesFilter = Static<typeof AdminCompaniesQuery>;
export type AdminCompanyList = Static<typeof AdminCompanyListSchema>;
export type AdminCompany = Static<typeof AdminCompanySchema>;
export type AdminCompanyPatch = Static<typeof AdminCompanyPatchBody>;
export type StaffProfile = Static<typeof StaffProfileSchema>;
export type StaffProfileFields = Static<typeof StaffProfileBody>;

/**
 * The element in which the server hands a page the API answers its first render asks for
 * (the storefront plugin writes it, the client's base query reads it): one round trip less.
 */
export const INITIAL_RESPONSES_ELEMENT_ID = 'initial-responses';

/**
 * An API read named by its path under the API host and its query parameters in a fixed order,
 * so the server and the client name the same request the same way.
 */
export function apiReadKey(path: string, params: Record<string, string | number | boolean> = {}): string {
  const query = new URLSearchParams(
    Object.entries(params)
      .map(([name, value]): [string, string] => [name, String(value)])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ).toString();
  return query ? `${path}?${query}` : path;
}

/** Every image (products, banners, the about page) is served by the API under this path. */
export function imageUrl(host: string, image: string): string {
  return `${host}${API_PREFIX}image/${encodeURIComponent(image)}`;
}
