// The carriers a manager names when an order is shipped («Отправлен»), and where each lets the buyer
// follow the parcel by its number. The pages were checked against how shops link to them in public
// code (2026-11); a carrier whose page cannot be opened by the number alone has no template, and
// the number is shown without a link.

export interface Carrier {
  name: string;
  /** The tracking page with `{number}` where the number goes (URL-encoded); null: no such page. */
  trackingUrl: string | null;
}

export const CARRIERS = [
  { name: 'СДЭК', trackingUrl: 'https://www.cdek.ru/ru/tracking?order_id={number}' },
  { name: 'Почта России', trackingUrl: 'https://www.pochta.ru/tracking?barcode={number}' },
  { name: 'Боксберри', trackingUrl: 'https://boxberry.ru/tracking-page?id={number}' },
  { name: 'Деловые Линии', trackingUrl: 'https://www.dellin.ru/tracker/orders/{number}/' },
  { name: 'ПЭК', trackingUrl: 'https://pecom.ru/services-are/order-status/?code={number}' },
  { name: 'КИТ', trackingUrl: null },
  { name: 'Другой перевозчик', trackingUrl: null },
] as const satisfies readonly Carrier[];

export type CarrierName = (typeof CARRIERS)[number]['name'];

export const CARRIER_NAMES = CARRIERS.map((carrier) => carrier.name) as CarrierName[];

/** The most a tracking number may have: the longest real ones are about 20 characters. */
export const TRACKING_NUMBER_MAX = 40;

/** A tracking number's letters: Latin letters and digits, with spaces and hyphens between them. */
export const TRACKING_NUMBER_PATTERN = '^[0-9A-Za-z]([0-9A-Za-z -]*[0-9A-Za-z])?$';

/** The carrier's page for the number, or null when the carrier has none (or is unknown). */
export function trackingUrl(carrier: string, number: string): string | null {
  const template = CARRIERS.find((candidate) => candidate.name === carrier)?.trackingUrl;
  return template ? template.replace('{number}', encodeURIComponent(number)) : null;
}

/** How «Отправлен» went, as the buyer and the back office read it; null when no carrier was named. */
export function trackingOf(
  carrier: string | null,
  number: string | null,
): { carrier: CarrierName; number: string | null; url: string | null } | null {
  if (!carrier) return null;
  return { carrier: carrier as CarrierName, number, url: number ? trackingUrl(carrier, number) : null };
}
