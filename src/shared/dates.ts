// Dates and times as the shop writes them. The shop keeps Moscow's calendar (UTC+3 all year since
// 2014), whatever the server's or the manager's clock zone: invoices, letters and spreadsheets are
// dated, the price list's file named and the back office's times and day filters read by it. The
// one exception is the buyer's own profile, whose dates are when the buyer did or saw something,
// so they are in the buyer's own clock zone («Local» in the name).

export const SHOP_TIME_ZONE = 'Europe/Moscow';

/** An instant as a Date or as the API writes it (ISO 8601). */
type Instant = Date | string;

const dayParts = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day in Moscow at an instant, as YYYY-MM-DD. */
export function moscowDay(instant: Date): string {
  const part = Object.fromEntries(dayParts.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day}`;
}

const clockParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock time in Moscow at an instant, as HH:MM:SS (1С's exchange documents). */
export function moscowClock(instant: Date): string {
  const part = Object.fromEntries(clockParts.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.hour}:${part.minute}:${part.second}`;
}

/** The instant of a Moscow wall-clock time (HH:MM) on a calendar day given as YYYY-MM-DD. */
export const moscowInstant = (day: string, time = '00:00'): Date => new Date(`${day}T${time}:00+03:00`);

const DATE_IN_WORDS = { day: 'numeric', month: 'long', year: 'numeric' } as const;
const DATE_TIME_IN_WORDS = { ...DATE_IN_WORDS, hour: '2-digit', minute: '2-digit' } as const;

const moscowDate = new Intl.DateTimeFormat('ru-RU', { ...DATE_IN_WORDS, timeZone: SHOP_TIME_ZONE });
const moscowDateNumeric = new Intl.DateTimeFormat('ru-RU', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: SHOP_TIME_ZONE,
});
const moscowDateTime = new Intl.DateTimeFormat('ru-RU', { ...DATE_TIME_IN_WORDS, timeZone: SHOP_TIME_ZONE });
const moscowDateTimeNumeric = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: SHOP_TIME_ZONE,
});
const localDate = new Intl.DateTimeFormat('ru-RU', DATE_IN_WORDS);
const localDateTime = new Intl.DateTimeFormat('ru-RU', DATE_TIME_IN_WORDS);

/** «24 ноября 2026 г.» in Moscow (an invoice's date). */
export const formatMoscowDate = (instant: Instant) => moscowDate.format(new Date(instant));

/** «24.11.2026» in Moscow (an invoice's payment purpose). */
export const formatMoscowDateNumeric = (instant: Instant) => moscowDateNumeric.format(new Date(instant));

/** «24 ноября 2026 г. в 15:04» in Moscow (the letters, an order's spreadsheet); older ICU data's «, 15:04» reads the same. */
export const formatMoscowDateTime = (instant: Instant) => moscowDateTime.format(new Date(instant)).replace(', ', ' в ');

/** The same with the zone said, for a reader who may live elsewhere: «24 ноября 2026 г. в 15:04 (мск)». */
export const formatMoscowDateTimeWithZone = (instant: Instant) => `${formatMoscowDateTime(instant)} (мск)`;

/** «24.11.2026, 16:50» in Moscow (the back office's tables and histories). */
export const formatMoscowDateTimeNumeric = (instant: Instant) => moscowDateTimeNumeric.format(new Date(instant));

/** A calendar day «2026-11-24» as «24.11.2026» (no time zone: the day is already Moscow's). */
export const formatCalendarDay = (day: string) => day.split('-').reverse().join('.');

/** «1 марта 2025 г.» in the buyer's own clock zone (the profile's orders). */
export const formatLocalDate = (instant: Instant) => localDate.format(new Date(instant));

/** «1 марта 2025 г. в 13:00» in the buyer's own clock zone (older ICU data writes «, 13:00»). */
export const formatLocalDateTime = (instant: Instant) => localDateTime.format(new Date(instant));
