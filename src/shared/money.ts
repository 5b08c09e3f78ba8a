// Money as a person reads it, wherever they read it (issue 36): the storefront, the back office,
// the letters, the invoice's PDF and the spreadsheets' number format all say it this one way.

// Not `style: 'currency'`: ICU versions differ in the sign and the space they put after the digits,
// and the Russian rule is one: two kopeck digits always, a non-breaking space before «₽».
const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1599.5 → «1 599,50 ₽» (non-breaking spaces between the groups and before the sign). */
export const formatRubles = (value: number) => `${rubles.format(value)}\u00a0₽`;
