// The shop keeps Moscow's calendar (UTC+3 all year since 2014), whatever the server's clock zone:
// invoices are dated, the price list's file named and the managers' day filters read by it.

export const SHOP_TIME_ZONE = 'Europe/Moscow';

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

/** The instant of a Moscow wall-clock time (HH:MM) on a calendar day given as YYYY-MM-DD. */
export const moscowInstant = (day: string, time = '00:00'): Date => new Date(`${day}T${time}:00+03:00`);
