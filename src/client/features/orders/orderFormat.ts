import { countOf } from '@/components/format';

// The buyer's own clock: the profile's dates are when the buyer did or saw something.
const day = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });
const dayAndTime = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** «1 марта 2025 г.» */
export const formatDate = (iso: string) => day.format(new Date(iso));

/** «1 марта 2025 г. в 13:00» (older ICU data writes «, 13:00»). */
export const formatDateTime = (iso: string) => dayAndTime.format(new Date(iso));

/** 1 штука, 3 штуки, 5 штук, 21 штука: units in an order (here, not in components/format, which the home page loads). */
export const piecesCount = countOf({ one: 'штука', few: 'штуки', many: 'штук' });
