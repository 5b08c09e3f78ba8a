import type { FastifyInstance } from 'fastify';
import type { Cart, Product } from '../../../src/shared/api';
import { allProducts, json, type Shopper } from './test-app';

type Variant = Product['variants'][number];

export const inStock = (product: Product) => product.variants.filter((variant) => variant.stock > 0);

/**
 * The catalogue as cart tests use it: a variant out of stock, and products with at least two
 * variants in stock, each taken by one test so that tests stay independent.
 */
export async function cartProducts(app: FastifyInstance) {
  const catalogue = await allProducts(app);
  const product = catalogue.find((candidate) => candidate.variants.some((variant) => variant.stock === 0))!;
  const soldOut: { product: Product; variant: Variant } = {
    product,
    variant: product.variants.find((variant) => variant.stock === 0)!,
  };
  const spare = catalogue.filter((candidate) => candidate !== product && inStock(candidate).length >= 2);
  return {
    soldOut,
    takeProduct(): Product {
      const taken = spare.shift();
      if (!taken) throw new Error('ran out of products with two variants in stock');
      return taken;
    },
  };
}

/** The shopper's cart, as the cart page reads it. */
export async function cartOf(app: FastifyInstance, shopper: Shopper): Promise<Cart> {
  const response = await app.inject({ method: 'GET', url: `/api/v1/cart/${shopper.id}`, headers: shopper.headers });
  expect(response.statusCode).toBe(200);
  return json<Cart>(response);
}
