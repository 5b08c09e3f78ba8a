import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import {
  AddressesLimitError,
  ArtTakenError,
  BarcodeTakenError,
  CatalogueChangedDuringImportError,
  CatalogueChangedSincePreviewError,
  PriceListPreviewNotFoundError,
  CartCountLimitError,
  CartLinesLimitError,
  CatalogueItemNotFoundError,
  CategoryNameTakenError,
  CategoryNotEmptyError,
  DailyOrdersLimitError,
  CompanyBlockedError,
  ConformityDocumentConflictError,
  ConformityDocumentRefusedError,
  CompanyItemNotFoundError,
  CompanyMembershipConflictError,
  CompanyRoleError,
  DomainError,
  ExchangeImportError,
  ExchangeItemNotFoundError,
  InvitationGoneError,
  LegalEntityConflictError,
  MinOrderSumError,
  PackagingError,
  PhotoColorError,
  PriceTypeConflictError,
  PriceTypeNotFoundError,
  ExchangeRefusedError,
  ExchangeTooLargeError,
  ExchangeSignInError,
  ExchangeThrottledError,
  ExchangeSessionError,
  ExchangeAddressRefusedError,
  PricingRefusedError,
  LegalEntityRefusedError,
  DuplicateLineError,
  EmailNotConfirmedError,
  IdempotencyConflictError,
  CartChangedError,
  InvoiceAlreadyIssuedError,
  InvoiceRequiredError,
  LastVariantError,
  LineRefusedError,
  OrderNotCancellableError,
  OrderNotFoundError,
  OrderTransitionError,
  OutOfStockError,
  ProductHiddenError,
  ProductNotFoundError,
  SessionExpiredError,
  ShipmentDetailsError,
  SoldOutError,
  StockShareExceededError,
  SupplierRequisitesMissingError,
  UnknownCategoryError,
  UnknownConformityDocumentError,
  UnpaidOrdersLimitError,
  UnprovenShareExceededError,
  UnsupportedFileTypeError,
  UploadReadersBusyError,
  MarketplaceKitTooLargeError,
  MarketplaceKitsBusyError,
  MarketplacePhotosBusyError,
  UploadRefusedError,
  UserNotFoundError,
  VariantOrderedError,
  VariantProductMismatchError,
  VariantTakenError,
} from '../domain/domain-errors';
import { ErrorSchema } from '../../shared/schemas/common';
import { ApiError } from '../api-error';
import { describeValidationError } from './validation';

const byFastifyCode: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Неподдерживаемый тип содержимого запроса'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Некорректная длина тела запроса'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Слишком большой запрос'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Пустое тело запроса'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Некорректный JSON в теле запроса'],
  FST_ERR_BAD_URL: [400, 'Некорректный адрес запроса'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'Слишком длинный адрес запроса'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'Некорректный запрос'],
};

const byStatus: Record<number, string> = {
  400: 'Некорректный запрос',
  401: 'Требуется вход в систему',
  403: 'Доступ запрещён',
  404: 'Не найдено',
  405: 'Метод не поддерживается',
  406: 'Неприемлемый формат ответа',
  412: 'Условие запроса (If-Match, If-Unmodified-Since) не выполнено',
  413: 'Слишком большой запрос',
  415: 'Неподдерживаемый тип содержимого запроса',
  429: 'Слишком много запросов. Попробуйте позже.',
};

// PostgreSQL unreachable or restarting: the request may succeed if repeated, so say 503, not 500.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08006',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|encountered a connection error and is not queryable/.test(
        message,
      )
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The one place that knows which HTTP status each broken rule of the shop is answered with. */
export const statusOfDomainError = new Map<abstract new (...args: never[]) => DomainError, number>([
  [OrderNotFoundError, 404],
  [OrderNotCancellableError, 409],
  [OrderTransitionError, 409],
  [InvoiceRequiredError, 409],
  [ShipmentDetailsError, 422],
  [InvoiceAlreadyIssuedError, 409],
  [SupplierRequisitesMissingError, 409],
  [OutOfStockError, 409],
  [ProductNotFoundError, 422],
  [VariantProductMismatchError, 422],
  [IdempotencyConflictError, 422],
  [CartChangedError, 409],
  [SessionExpiredError, 401],
  [UserNotFoundError, 404],
  [ProductHiddenError, 409],
  [CatalogueItemNotFoundError, 404],
  [ArtTakenError, 409],
  [VariantTakenError, 409],
  [LastVariantError, 409],
  [VariantOrderedError, 409],
  [CategoryNameTakenError, 409],
  [CategoryNotEmptyError, 409],
  [UnknownCategoryError, 422],
  [BarcodeTakenError, 409],
  [UnknownConformityDocumentError, 422],
  [PhotoColorError, 422],
  [ConformityDocumentRefusedError, 422],
  [ConformityDocumentConflictError, 409],
  [CatalogueChangedDuringImportError, 409],
  [CatalogueChangedSincePreviewError, 409],
  [PriceListPreviewNotFoundError, 404],
  [SoldOutError, 409],
  [CartCountLimitError, 422],
  [DuplicateLineError, 422],
  [UnpaidOrdersLimitError, 409],
  [DailyOrdersLimitError, 409],
  [StockShareExceededError, 422],
  [UnprovenShareExceededError, 409],
  [EmailNotConfirmedError, 403],
  [AddressesLimitError, 409],
  [CartLinesLimitError, 409],
  [UnsupportedFileTypeError, 415],
  [UploadRefusedError, 422],
  [UploadReadersBusyError, 503],
  [MarketplaceKitTooLargeError, 422],
  [MarketplaceKitsBusyError, 503],
  [MarketplacePhotosBusyError, 503],
  [CompanyRoleError, 403],
  [CompanyBlockedError, 403],
  [CompanyItemNotFoundError, 404],
  [InvitationGoneError, 410],
  [CompanyMembershipConflictError, 409],
  [LegalEntityRefusedError, 422],
  [LegalEntityConflictError, 409],
  [PackagingError, 422],
  [MinOrderSumError, 422],
  [PricingRefusedError, 422],
  [PriceTypeConflictError, 409],
  [PriceTypeNotFoundError, 404],
  // /1c_exchange answers these as `failure` lines (routes/exchange), with the same statuses.
  [ExchangeRefusedError, 400],
  [ExchangeTooLargeError, 413],
  [ExchangeSignInError, 401],
  [ExchangeThrottledError, 429],
  [ExchangeSessionError, 401],
  [ExchangeAddressRefusedError, 403],
  [ExchangeImportError, 422],
  [ExchangeItemNotFoundError, 404],
]);

/** A refused line of a list is answered as its reason would be on its own. */
function statusOf(error: DomainError): number | undefined {
  if (error instanceof LineRefusedError) return statusOf(error.reason);
  return statusOfDomainError.get(error.constructor as typeof DomainError);
}

/** The status and the words any failure is answered with. */
export function classify(error: FastifyError): [number, string] {
  if (error instanceof ApiError) return [error.statusCode, error.detail];
  // A domain error with no status here is a bug: it falls through to the generic 500 below.
  const domainStatus = error instanceof DomainError ? statusOf(error) : undefined;
  if (domainStatus) return [domainStatus, (error as unknown as DomainError).detail];
  if (error.validation) return [422, describeValidationError(error.validation as never, error.validationContext)];
  const known = byFastifyCode[error.code];
  if (known) return known;
  if (error instanceof SyntaxError && error.statusCode === 400) return [400, 'Некорректный JSON в теле запроса'];
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return [status, byStatus[status] ?? 'Некорректный запрос'];
  if (isDatabaseUnavailable(error)) return [503, 'Сервис временно недоступен. Повторите попытку позже.'];
  return [500, 'Внутренняя ошибка сервера'];
}

/**
 * Fastify's own routing failures (a URL that cannot be decoded, an over-long path segment) happen
 * before any route or hook, so the error handler never sees them and Fastify would answer with its
 * own body naming its internal error code. They are answered as `{detail}` like everything else.
 */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, detail] = classify(error);
  sendBeforeHooks(reply, status, detail);
}

/** `{detail}` for a request the hooks that add the security headers have not run for. */
function sendBeforeHooks(reply: FastifyReply, status: number, detail: string): void {
  reply
    .code(status)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .type('application/json; charset=utf-8')
    .send({ detail });
}

/** Methods whose requests Fastify reads a body for (when one is sent), and so may refuse it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const SCHEMA_INPUTS = ['params', 'querystring', 'body', 'headers'] as const;

/**
 * The error statuses this plugin and Fastify answer on a route whatever its handler does, each
 * with `{detail}`: a body that is malformed JSON (400), too large (413) or of a type no parser
 * reads (415) on any method that takes one; input its schema refuses (422); a path that does
 * not decode (400) or whose parameter is too long (414); the database unreachable (503).
 */
export function centralErrorStatuses(route: Pick<RouteOptions, 'method' | 'url' | 'schema'>): number[] {
  const methods = [route.method].flat();
  const statuses = new Set<number>();
  if (methods.some((method) => BODY_METHODS.has(method))) [400, 413, 415].forEach((status) => statuses.add(status));
  if (SCHEMA_INPUTS.some((part) => route.schema?.[part])) statuses.add(422);
  if (route.url.includes(':')) [400, 414].forEach((status) => statuses.add(status));
  if (route.url.startsWith('/api/v1/')) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * Adds the central error statuses to a documented route's answers (a route's own entry for a
 * status wins), so that the OpenAPI document lists every status the route can answer.
 */
function documentCentralErrors(route: RouteOptions): void {
  const { schema } = route;
  if (!schema?.response || schema.hide) return;
  const central = Object.fromEntries(centralErrorStatuses(route).map((status) => [status, ErrorSchema]));
  route.schema = { ...schema, response: { ...central, ...(schema.response as object) } };
}

/** Words for what Node's HTTP parser refuses before Fastify sees a request (its clientError codes). */
const clientErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Слишком большие заголовки запроса'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Слишком большой запрос'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Время ожидания запроса истекло'],
};

/**
 * A request Node's HTTP parser refuses (headers too large, a malformed request line, too slow)
 * never reaches Fastify; Node or Fastify's default would answer it in a body of their own without
 * the API's headers. It is answered `{detail}` with them, and the connection closed (written and
 * destroyed, as Node's own answer is).
 */
export function sendClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Fastify's own handler does: mostly network noise, so only at trace (rawPacket is redacted).
  this.log.trace({ err: error }, 'client error');
  // An answer already begun on this connection cannot be followed by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, detail] = clientErrors[error.code ?? ''] ?? [400, 'Некорректный запрос'];
    const body = JSON.stringify({ detail });
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'X-Content-Type-Options: nosniff',
        "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy();
}

/** The one place that turns any failure into `{detail}`; internals are logged, never sent. */
export default fp(
  async (app) => {
    app.addHook('onRoute', documentCentralErrors);
    // HTTP/1.1 requires Host (RFC 9112 §3.2). Node's own check answers a bare 400 without the
    // API's body or headers, so it is off (requireHostHeader in app.ts) and made here, first.
    app.addHook('onRequest', (request, reply, done) => {
      const { httpVersionMajor, httpVersionMinor } = request.raw;
      if (request.headers.host === undefined && httpVersionMajor === 1 && httpVersionMinor >= 1) {
        sendBeforeHooks(reply, 400, 'Некорректный запрос: нет заголовка Host');
        return;
      }
      done();
    });
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const [status, detail] = classify(error);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      // A route that knows when to come back (it set its own before failing) keeps its value.
      if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '5');
      return reply.code(status).type('application/json; charset=utf-8').send({ detail });
    });
  },
  { name: 'error-handling' },
);
