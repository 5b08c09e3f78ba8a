// An order's statuses, in the order an order goes through them: the API's enum, the database's
// values and the storefront's labels.

export const ORDER_STATUSES = ['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен', 'Доставлен', 'Отменён'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const DELIVERED_STATUS: OrderStatus = 'Доставлен';
