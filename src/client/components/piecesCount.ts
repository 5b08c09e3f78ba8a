import { countOf } from '@shared/plurals';

/** 1 штука, 3 штуки, 5 штук, 21 штука: units in an order or a cart (a file of its own, not components/format, which the home page loads). */
export const piecesCount = countOf({ one: 'штука', few: 'штуки', many: 'штук' });
