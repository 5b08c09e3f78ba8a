import type { CheckoutItem } from '@shared/paths';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useGetCartQuery } from '@/features/cart/cartApi';
import { useGetProductsByArtsQuery } from '@/features/catalogue/catalogueApi';
import { selectUser } from '@/features/session/sessionSlice';
import { BackToCart, NoGoods } from './BackToCart';
import { CheckoutForm, CheckoutLoading, type RequisiteParts } from './CheckoutForm';
import { linesOfCart, linesOfItems } from './checkoutLines';

/** SPEC §2's checkout of the address's `items=art:variant_id:count,...`. */
export function ItemsCheckout({ items, requisiteFields }: { items: CheckoutItem[]; requisiteFields: RequisiteParts }) {
  const arts = [...new Set(items.map((item) => item.art))];
  const { data: products, isLoading } = useGetProductsByArtsQuery(arts);
  if (isLoading) return <CheckoutLoading />;
  // Lines once loaded stay on screen when a later refetch fails (an order's failure refetches them,
  // offline too). The old checkout waited on 'Загрузка товаров...' for ever here; see docs/decisions.md.
  if (!products) return <BackToCart title="Не удалось загрузить товары заказа" />;
  const resolved = linesOfItems(items, products);
  if ('missing' in resolved) return <BackToCart title={resolved.missing} />;
  return <CheckoutForm lines={resolved.lines} requisiteFields={requisiteFields} />;
}

/**
 * The checkout of the server cart as it is saved, read in one request, for a cart whose `items=`
 * address would be too long (docs/decisions.md): the order carries the cart's version.
 */
export function CartCheckout({ requisiteFields }: { requisiteFields: RequisiteParts }) {
  const user = useAppSelector(selectUser)!;
  const { data: cart, isLoading } = useGetCartQuery(user.id);
  if (isLoading) return <CheckoutLoading />;
  if (!cart) return <BackToCart title="Не удалось загрузить корзину" />;
  const lines = linesOfCart(cart);
  if (lines.length === 0) return <NoGoods />;
  return <CheckoutForm lines={lines} cartVersion={cart.version} requisiteFields={requisiteFields} />;
}
