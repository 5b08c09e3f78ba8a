import { memo } from 'react';
import { shallowEqual } from 'react-redux';
import { Link } from 'react-router';
import { imageUrl, type CartItem } from '@shared/api';
import { productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { CartLine } from './CartLine';

/** A product in the cart and its lines, one per variant chosen. */
export interface ProductGroup {
  product: CartItem['product'];
  lines: CartItem[];
}

/**
 * One product of a cart that may hold hundreds (docs/decisions.md, "A long cart"), with the
 * variants chosen beneath it. It re-renders only when its lines' data does (a reload keeps unchanged
 * items as the same objects), and the description is a CSS line clamp, not Typography's ellipsis,
 * which measures every line with an observer.
 */
export const CartProduct = memo(
  function CartProduct({ group }: { group: ProductGroup }) {
    const { product, lines } = group;
    const productLink = productPath(product.art);
    return (
      <li className="cart-product" role="listitem">
        <Link to={productLink} className="cart-line-image">
          <img src={imageUrl(API_HOST, product.image)} alt={product.name} width={96} height={96} loading="lazy" />
        </Link>
        <div className="cart-product-text">
          <h2 className="cart-product-name">
            <Link to={productLink} className="cart-line-name">
              {product.name}
            </Link>
          </h2>
          <p className="cart-product-art">Арт. {product.art}</p>
          <p className="cart-line-description">{product.description}</p>
        </div>
        <ul className="cart-variants" role="list" aria-label={`Выбранные варианты: ${product.name}`}>
          {lines.map((item) => (
            <CartLine key={item.id} item={item} />
          ))}
        </ul>
      </li>
    );
  },
  (previous, next) => shallowEqual(previous.group.lines, next.group.lines),
);
