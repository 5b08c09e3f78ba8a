import { countOf } from '@shared/plurals';

/** 1 штука, 3 штуки, 5 штук, 21 штука: units in an order (here, not in components/format, which the home page loads). */
export const piecesCount = countOf({ one: 'штука', few: 'штуки', many: 'штук' });
