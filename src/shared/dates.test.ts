import {
  formatCalendarDay,
  formatLocalDate,
  formatLocalDateTime,
  formatMoscowDate,
  formatMoscowDateNumeric,
  formatMoscowDateTime,
  formatMoscowDateTimeNumeric,
  formatMoscowDateTimeWithZone,
  moscowClock,
  moscowDay,
  moscowInstant,
} from './dates';

// 23:30 in London on the 24th of November is 02:30 on the 25th in Moscow.
const LATE_EVENING_UTC = '2026-11-24T23:30:00.000Z';

describe('Moscow time', () => {
  test('the calendar day and a wall-clock time are Moscow’s, whatever the machine’s zone', () => {
    expect(moscowDay(new Date(LATE_EVENING_UTC))).toBe('2026-11-25');
    expect(moscowClock(new Date('2026-11-24T21:00:05.000Z'))).toBe('00:00:05');
    expect(moscowClock(new Date(LATE_EVENING_UTC))).toBe('02:30:00');
    expect(moscowInstant('2026-11-25', '02:30').toISOString()).toBe(LATE_EVENING_UTC);
    expect(moscowInstant('2026-11-25').toISOString()).toBe('2026-11-24T21:00:00.000Z');
  });

  test('dates and times are written as Moscow reads them', () => {
    expect(formatMoscowDate(new Date(LATE_EVENING_UTC))).toBe('25 ноября 2026 г.');
    expect(formatMoscowDateNumeric(LATE_EVENING_UTC)).toBe('25.11.2026');
    expect(formatMoscowDateTime(LATE_EVENING_UTC)).toBe('25 ноября 2026 г. в 02:30');
    expect(formatMoscowDateTimeWithZone(new Date(LATE_EVENING_UTC))).toBe('25 ноября 2026 г. в 02:30 (мск)');
    expect(formatMoscowDateTimeNumeric(LATE_EVENING_UTC)).toBe('25.11.2026, 02:30');
  });

  test('a calendar day is only rewritten', () => {
    expect(formatCalendarDay('2026-11-24')).toBe('24.11.2026');
  });
});

describe('the buyer’s own clock', () => {
  test('dates and times are the machine’s', () => {
    const oneInTheAfternoon = new Date(2025, 2, 1, 13, 0);
    expect(formatLocalDate(oneInTheAfternoon)).toBe('1 марта 2025 г.');
    expect(formatLocalDateTime(oneInTheAfternoon.toISOString())).toMatch(/^1 марта 2025 г\.(,| в) 13:00$/);
  });
});
