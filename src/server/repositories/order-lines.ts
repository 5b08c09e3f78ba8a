import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { orderLines, orders, products } from '../db/schema';

/** The order's lines as they were ordered, in the order of the basket: the buyer's and the manager's order pages and the invoice show them. */
export function orderLineRows(db: Queryable, orderId: number) {
  return db
    .select({
      product_id: orderLines.productId,
      variant_id: orderLines.variantId,
      art: products.art,
      name: orderLines.productName,
      color: orderLines.color,
      size: orderLines.size,
      price: orderLines.price,
      quantity: orderLines.quantity,
      listPrice: orderLines.listPrice,
      price_type: orderLines.priceTypeName,
      tier_from: orderLines.tierFrom,
    })
    .from(orderLines)
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
}

/** The order's own details as its pages and messages show them (with its lines from orderLineRows). */
export const orderDetailColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  status: orders.status,
  totalPrice: orders.totalPrice,
  contactName: orders.contactName,
  contactPhone: orders.contactPhone,
  address: orders.address,
  companyName: orders.companyName,
  companyInn: orders.companyInn,
  companyKpp: orders.companyKpp,
};
