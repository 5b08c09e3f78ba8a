// The back office shows times in Moscow, the shop's time, in which the orders' day filters work too.
const dateTime = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** «24.11.2026, 16:50» in Moscow time. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** A calendar day «2026-11-24» as «24.11.2026» (no time zone: the day is already Moscow's). */
export const formatDay = (day: string) => day.split('-').reverse().join('.');
