import { formatMoscowDateTimeWithZone } from '../../shared/dates';
import { pluralForm } from '../../shared/plurals';
import { EMAIL_CONFIRMATION_MESSAGES } from '../../shared/account';
import { COMPANY_MESSAGES } from '../../shared/company';

/**
 * Failures of the shop's own rules, thrown by repositories and services. They carry the Russian
 * text a buyer or manager reads, but no HTTP status: only the error plugin turns them into one
 * (plugins/error-handler.ts), so the same rule reads the same from the API and from the managers' command.
 */
export abstract class DomainError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}

export class OrderNotFoundError extends DomainError {
  constructor() {
    super('Заказ не найден');
  }
}

/** Goods have left the warehouse (or the order is already cancelled). */
export class OrderNotCancellableError extends DomainError {
  constructor(orderId: number, status: string) {
    super(`Заказ #${orderId} в статусе «${status}» нельзя отменить`);
  }
}

/** The order state machine (domain/order-workflow.ts) has no such step. */
export class OrderTransitionError extends DomainError {
  constructor(orderId: number, from: string, to: string) {
    super(`Заказ #${orderId} нельзя перевести из статуса «${from}» в статус «${to}»`);
  }
}

/** A carrier or a tracking number given with a change other than «Отправлен», or a number without its carrier. */
export class ShipmentDetailsError extends DomainError {}

/** «Ожидает оплаты» means an invoice has been issued, so only issuing one sets it. */
export class InvoiceRequiredError extends DomainError {
  constructor(orderId: number) {
    super(`Заказ #${orderId} переходит в статус «Ожидает оплаты» только при выставлении счёта`);
  }
}

/** An order has one invoice: issuing it again would give the same goods a second number. */
export class InvoiceAlreadyIssuedError extends DomainError {
  constructor(orderId: number, invoice: { number: number; date: string }) {
    const [year, month, day] = invoice.date.split('-');
    super(`Счёт по заказу №${orderId} уже выставлен: № ${invoice.number} от ${day}.${month}.${year}`);
  }
}

/** The invoice would print the supplier's details, and some are still blank. */
export class SupplierRequisitesMissingError extends DomainError {}

export class ProductNotFoundError extends DomainError {
  constructor(variantId: number, productId: number) {
    super(`Не удалось найти вариант с id=${variantId} для продукта ${productId}`);
  }
}

/** One variant listed under two different products in the same order. */
export class VariantProductMismatchError extends DomainError {
  constructor(variantId: number) {
    super(`Вариант с id=${variantId} указан для разных товаров`);
  }
}

export class OutOfStockError extends DomainError {
  constructor(product: { name: string; color: string; size: number; stock: number }, ordered: number) {
    super(
      `Недостаточно товара «${product.name}» (${product.color}, ${product.size} см): ` +
        `в наличии ${product.stock} шт., заказано ${ordered} шт.`,
    );
  }
}

/** The Idempotency-Key already placed a different order. */
export class IdempotencyConflictError extends DomainError {
  constructor() {
    super(
      'Этот заказ уже оформлен: он в разделе «Мои заказы» личного кабинета. Чтобы изменить его, свяжитесь с менеджером.',
    );
  }
}

/** The server cart's version the checkout was made from is not the cart's now (another tab or device changed it). */
export class CartChangedError extends DomainError {
  constructor() {
    super('Корзина изменилась в другой вкладке или на другом устройстве. Проверьте заказ и оформите его ещё раз.');
  }
}

export class UserNotFoundError extends DomainError {
  constructor(email: string) {
    super(`Пользователь с e-mail «${email}» не найден`);
  }
}

/** A refresh token that is absent, expired, revoked or already spent. */
export class SessionExpiredError extends DomainError {
  constructor(detail = 'Сессия истекла. Войдите снова.') {
    super(detail);
  }
}

/** A product, variant, category or banner of the back office that does not exist. */
export class CatalogueItemNotFoundError extends DomainError {}

export class ArtTakenError extends DomainError {
  constructor(art: string) {
    super(`Артикул «${art}» уже есть у другого товара`);
  }
}

/** A conformity document's fields break a rule (a date not in the calendar, a validity ending before it starts, a product that is not there). */
export class ConformityDocumentRefusedError extends DomainError {}

/** Another document has the number, or products still name the document being deleted. */
export class ConformityDocumentConflictError extends DomainError {}

/** A product has one variant per colour and size. */
export class VariantTakenError extends DomainError {
  constructor(color: string, size: number) {
    super(`У товара уже есть вариант «${color}, ${size} см»`);
  }
}

/** Deleting a product's only variant would leave the storefront a product nobody can choose. */
export class LastVariantError extends DomainError {
  constructor() {
    super('У товара должен остаться хотя бы один вариант');
  }
}

/** Order lines point at their variant, so an ordered variant stays; a stock of 0 takes it off sale. */
export class VariantOrderedError extends DomainError {
  constructor(color: string, size: number, orders: number) {
    super(
      `Вариант «${color}, ${size} см» есть в заказах (${orders}), поэтому удалить его нельзя. ` +
        'Поставьте остаток 0: заказать его больше не смогут.',
    );
  }
}

/** A barcode a manager typed is already another variant's (1С's duplicates are kept, typed ones are not). */
export class BarcodeTakenError extends DomainError {
  constructor(barcode: string, art: string) {
    super(`Штрихкод ${barcode} уже есть у варианта товара с артикулом «${art}»`);
  }
}

export class UnknownConformityDocumentError extends DomainError {
  constructor() {
    super('Документ соответствия не найден');
  }
}

/** A product's photos name a colour none of its variants has. */
export class PhotoColorError extends DomainError {
  constructor(color: string) {
    super(`У товара нет вариантов цвета «${color}»: фото этого цвета не к чему привязать`);
  }
}

export class UnknownCategoryError extends DomainError {
  constructor(name: string) {
    super(`Категории «${name}» нет`);
  }
}

export class CategoryNameTakenError extends DomainError {
  constructor(name: string) {
    super(`Категория «${name}» уже есть`);
  }
}

/** Products keep their category (hidden ones too, for the orders that hold them). */
export class CategoryNotEmptyError extends DomainError {
  constructor(name: string, products: number) {
    super(
      `В категории «${name}» ещё есть товары (${products}, считая снятые с продажи): ` +
        'перенесите их в другую категорию, прежде чем удалять эту.',
    );
  }
}

/**
 * The catalogue changed under a price list import in a way only the database saw (a product made in
 * the back office with an article the import was creating): nothing was written; the import can
 * simply run again.
 */
export class CatalogueChangedDuringImportError extends DomainError {
  constructor() {
    super('Каталог изменился во время импорта: повторите импорт');
  }
}

/**
 * «Применить» of a price list's preview found the catalogue no longer as the check saw it (a price
 * or stock edited, a variant or product added, a category renamed): nothing was written.
 */
export class CatalogueChangedSincePreviewError extends DomainError {
  constructor() {
    super('Каталог изменился после проверки файла: проверьте файл снова и посмотрите изменения');
  }
}

/** A price list's preview that is not the caller's, has expired or was applied already. */
export class PriceListPreviewNotFoundError extends DomainError {
  constructor() {
    super('Проверка файла не найдена или устарела: загрузите файл снова');
  }
}

/**
 * A manager has taken the product off sale: it stays in carts, but cannot be ordered. Nameless:
 * an order may name any variant id, and a product off sale is not shown to buyers.
 */
export class ProductHiddenError extends DomainError {
  constructor() {
    super('Товар снят с продажи: уберите его из корзины');
  }
}

/** A variant with nothing in stock is not put in the cart. */
export class SoldOutError extends DomainError {
  constructor(name: string) {
    super(`Товара «${name}» нет в наличии`);
  }
}

/** One cart line holds at most LIMITS.maxCartCount pieces, added to or not. */
export class CartCountLimitError extends DomainError {
  constructor(max: number) {
    super(`В корзине может быть не больше ${max} шт. одного варианта`);
  }
}

/** A list names each variant once: two lines of one variant are more likely a mistake than a sum. */
export class DuplicateLineError extends DomainError {
  constructor(variantId: number, firstLine: number) {
    super(`Вариант с id=${variantId} уже указан в строке ${firstLine}`);
  }
}

/**
 * One line of a list the buyer sent (a bulk addition to the cart) broke a rule: the answer names
 * the line as the buyer counts them, from 1, and has the status the rule has on its own.
 */
export class LineRefusedError extends DomainError {
  constructor(
    readonly line: number,
    readonly reason: DomainError,
  ) {
    super(`Строка ${line}: ${reason.detail.charAt(0).toLowerCase()}${reason.detail.slice(1)}`);
  }
}

/** The company already has BuyerLimits.maxUnpaidOrders orders in «Создан» or «Ожидает оплаты». */
export class UnpaidOrdersLimitError extends DomainError {
  constructor(max: number) {
    super(
      max === 1
        ? 'У вас уже есть неоплаченный заказ. Оплатите или отмените его, чтобы оформить новый'
        : `У вас уже ${max} ${pluralForm(max, { one: 'неоплаченный заказ', few: 'неоплаченных заказа', many: 'неоплаченных заказов' })}. ` +
            'Оплатите или отмените один из них, чтобы оформить новый',
    );
  }
}

/** The company placed BuyerLimits.maxOrdersPerDay orders in the last 24 hours. */
export class DailyOrdersLimitError extends DomainError {
  constructor(max: number, nextAt: Date, contactEmail: string) {
    super(
      `За сутки можно оформить не больше ${max} ${pluralForm(max, { one: 'заказа', few: 'заказов', many: 'заказов' })}. ` +
        `Следующий можно будет оформить ${formatMoscowDateTimeWithZone(nextAt)}; если заказ срочный, напишите менеджеру: ${contactEmail}`,
    );
  }
}

/** One order line takes more than BuyerLimits.maxStockSharePercent of its variant's stock. */
export class StockShareExceededError extends DomainError {
  constructor(product: { name: string; color: string; size: number }, max: number, contactEmail: string) {
    super(
      `Можно заказать не больше ${max} шт. «${product.name}» (${product.color}, ${product.size} см) за один заказ — ` +
        `для большего объёма свяжитесь с менеджером: ${contactEmail}`,
    );
  }
}

/**
 * The unpaid orders of buyers not yet proven already hold their share of the variant
 * (BuyerLimits.unprovenStockSharePercent); `available` is what is left of it.
 */
export class UnprovenShareExceededError extends DomainError {
  constructor(product: { name: string; color: string; size: number }, available: number, contactEmail: string) {
    const named = `«${product.name}» (${product.color}, ${product.size} см)`;
    super(
      (available > 0
        ? `Пока у вас нет оплаченных заказов, сейчас можно заказать не больше ${available} шт. ${named}: `
        : `Пока у вас нет оплаченных заказов, ${named} сейчас заказать нельзя: `) +
        'часть остатка уже зарезервирована новыми покупателями, остальное ждёт покупателей с оплаченными заказами. ' +
        `Чтобы заказать больше, напишите менеджеру: ${contactEmail}`,
    );
  }
}

/** REQUIRE_EMAIL_CONFIRMATION: the buyer has not opened the link of the confirmation letter yet. */
export class EmailNotConfirmedError extends DomainError {
  constructor() {
    super(EMAIL_CONFIRMATION_MESSAGES.required);
  }
}

/** The company has BuyerLimits.maxAddresses saved addresses. */
export class AddressesLimitError extends DomainError {
  constructor(max: number) {
    super(
      `Можно сохранить не больше ${max} ${pluralForm(max, { one: 'адреса', few: 'адресов', many: 'адресов' })}. ` +
        'Удалите ненужный адрес, чтобы добавить новый',
    );
  }
}

/** The new variants would take the cart past BuyerLimits.maxCartLines lines. */
export class CartLinesLimitError extends DomainError {
  constructor(max: number, inCart: number, adding: number) {
    super(
      `В корзине может быть не больше ${max} ${pluralForm(max, { one: 'строки', few: 'строк', many: 'строк' })}, ` +
        `а в ней уже ${inCart} ${pluralForm(inCart, { one: 'строка', few: 'строки', many: 'строк' })}` +
        (adding > 1 ? ` и добавляются ещё ${adding} новых` : '') +
        '. Оформите заказ или удалите ненужные строки, чтобы добавить новые',
    );
  }
}

/** An uploaded file of a kind the shop does not read (a spreadsheet that is neither XLSX nor CSV, an image of another format). */
export class UnsupportedFileTypeError extends DomainError {}

/**
 * An upload or a pasted list the shop cannot take: empty, broken, beyond its limits, or without
 * what it must hold (the columns, a line of goods); the detail says which.
 */
export class UploadRefusedError extends DomainError {}

/** Every reader of uploaded spreadsheets in the process is busy and enough files already wait their turn. */
export class UploadReadersBusyError extends DomainError {
  constructor() {
    super('Сейчас загружается много файлов: повторите через несколько секунд');
  }
}

/** A cart's or an order's kit of more products than one kit takes (MARKETPLACE_KIT_MAX_PRODUCTS). */
export class MarketplaceKitTooLargeError extends DomainError {
  constructor(max: number, count: number, of: 'cart' | 'order') {
    super(
      `В наборе карточек не больше ${max} товаров, а ${of === 'cart' ? 'в корзине' : 'в заказе'} — ${count}: ` +
        'скачайте карточки частями — выберите товары в каталоге',
    );
  }
}

/** The process already builds as many marketplace kits as it takes at once. */
export class MarketplaceKitsBusyError extends DomainError {
  constructor() {
    super('Сейчас собирается много наборов карточек: повторите через несколько секунд');
  }
}

/** The process's photo work is all taken (services/photo-work.ts): a public link's photo is not rendered now. */
export class MarketplacePhotosBusyError extends DomainError {
  constructor() {
    super('Сейчас готовится много фото для маркетплейсов: повторите через несколько секунд');
  }
}

/** The caller's role in the company does not allow this (src/shared/company.ts says who may what). */
export class CompanyRoleError extends DomainError {}

/** A manager has blocked the company: its employees read their orders but place none. */
export class CompanyBlockedError extends DomainError {
  constructor() {
    super(COMPANY_MESSAGES.companyBlocked);
  }
}

/** No such company, employee, legal entity or invitation — or not one the caller may see. */
export class CompanyItemNotFoundError extends DomainError {}

/** The invitation was accepted, revoked or has expired. */
export class InvitationGoneError extends DomainError {
  constructor() {
    super(COMPANY_MESSAGES.invitationGone);
  }
}

/**
 * The change would break who belongs where: the address is another company's employee or already
 * a member, the company would lose its last owner, an account with orders would change company.
 */
export class CompanyMembershipConflictError extends DomainError {}

/** A legal entity's details break a rule (the ИНН and its kind, the КПП, the bank's checks). */
export class LegalEntityRefusedError extends DomainError {}

/** The company has MAX_LEGAL_ENTITIES legal entities, or one with this ИНН and КПП already. */
export class LegalEntityConflictError extends DomainError {}

/** A count breaks the product's кратность or minimum (src/shared/pricing.ts packagingProblem). */
export class PackagingError extends DomainError {
  constructor(productName: string, problem: string) {
    super(`«${productName}»: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
  }
}

/** An order's sum is below its price type's minimum. */
export class MinOrderSumError extends DomainError {}

/** Prices, tiers or packaging a manager sets break a rule (src/shared/pricing.ts). */
export class PricingRefusedError extends DomainError {}

/** A price type cannot go or change so while something depends on it (a company, the default's place). */
export class PriceTypeConflictError extends DomainError {}

export class PriceTypeNotFoundError extends DomainError {
  constructor() {
    super('Тип цен не найден');
  }
}

/** What 1С sent at /1c_exchange breaks the protocol or its rules (a file name with a path, a broken zip). */
export class ExchangeRefusedError extends DomainError {}

/** A file, a chunk or an exchange's files in all are larger than the exchange allows. */
export class ExchangeTooLargeError extends DomainError {}

/** /1c_exchange: a wrong e-mail or password, or an account without the exchange access. */
export class ExchangeSignInError extends DomainError {
  constructor() {
    super('Неверный логин или пароль');
  }
}

/** /1c_exchange: too many sign-ins from this address; 1С may try again after `seconds`. */
export class ExchangeThrottledError extends DomainError {
  constructor(readonly seconds: number) {
    super(`Слишком много попыток входа, повторите через ${seconds} с`);
  }
}

/** /1c_exchange: a call without a valid session cookie, or before `init`. */
export class ExchangeSessionError extends DomainError {}

/** /1c_exchange from an address outside EXCHANGE_ALLOWED_IPS. */
export class ExchangeAddressRefusedError extends DomainError {
  constructor() {
    super('Обмен с этого адреса не разрешён');
  }
}

/**
 * A file of the 1С exchange that could not be applied (its reading failed, or applying it broke a
 * rule of the catalogue): nothing of it was applied; /1c_exchange answers `failure` with the reason.
 */
export class ExchangeImportError extends DomainError {}

/** «Обмен с 1С» in the back office: a run, a kept file, a 1С price type or warehouse, or an account it does not know. */
export class ExchangeItemNotFoundError extends DomainError {}
