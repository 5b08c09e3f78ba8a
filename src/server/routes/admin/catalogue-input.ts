import type { FastifyInstance } from 'fastify';
import type {
  BannerFields,
  BannerPatch,
  CategoryPatch,
  ProductCreate,
  ProductPatch,
  VariantFields,
  VariantPatch,
} from '../../../shared/api';
import { bannerUrlProblem, priceProblem } from '../../../shared/catalogue';
import { unprocessable } from '../../api-error';
import type { NewProduct } from '../../services/admin-products';
import { imageExists, NEW_PRODUCT_IMAGE } from '../../services/catalogue-images';

// What the schemas cannot say about a manager's input: text that is only spaces, kopecks, a
// colour and size given twice, a picture that does not exist, a link that is not one. Checked
// before any transaction starts, so a refused request has changed nothing.

/** Trimmed; a field of spaces alone is as empty as a missing one. */
function filled(value: string, label: string): string {
  const text = value.trim();
  if (!text) throw unprocessable(`Некорректные данные: не заполнено поле «${label}»`);
  return text;
}

/** Each of the four optional in a patch, checked only when given. */
const ifGiven = <T, R>(value: T | undefined, check: (value: T) => R): R | undefined =>
  value === undefined ? undefined : check(value);

/**
 * A change must name at least one field the route knows. The schemas' minProperties counts the
 * body as sent, before unknown fields are dropped, so `{"colour": "red"}` passes it and would
 * reach the database as an update with nothing to set.
 */
function somethingToChange<T extends object>(patch: T): T {
  if (Object.values(patch).every((value) => value === undefined)) {
    throw unprocessable('Некорректные данные: не передано ни одного известного поля для изменения');
  }
  return patch;
}

/** Blank descriptions are none. */
const optionalText = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

function checkedPrice(price: number): number {
  const problem = priceProblem(price);
  if (problem) throw unprocessable(problem);
  return price;
}

const checkedColor = (color: string) => filled(color, 'Цвет');
export const checkedCategoryName = (name: string) => filled(name, 'Категория');

export function checkedVariant(variant: VariantFields): VariantFields {
  return { ...variant, color: checkedColor(variant.color), price: checkedPrice(variant.price) };
}

export function checkedVariantPatch(patch: VariantPatch): VariantPatch {
  return somethingToChange({
    ...patch,
    color: ifGiven(patch.color, checkedColor),
    price: ifGiven(patch.price, checkedPrice),
  });
}

async function checkedImage(app: FastifyInstance, name: string): Promise<string> {
  if (!(await imageExists(app.database.db, app.config.imageDir, name))) {
    throw unprocessable(`Картинки «${name}» нет: сначала загрузите её`);
  }
  return name;
}

export async function checkedProduct(app: FastifyInstance, product: ProductCreate): Promise<NewProduct> {
  const variants = product.variants.map(checkedVariant);
  const seen = new Set<string>();
  for (const { color, size } of variants) {
    const key = JSON.stringify([color, size]);
    if (seen.has(key)) throw unprocessable(`Вариант «${color}, ${size} см» указан дважды`);
    seen.add(key);
  }
  return {
    ...product,
    art: filled(product.art, 'Артикул'),
    name: filled(product.name, 'Название'),
    description: optionalText(product.description),
    big_description: optionalText(product.big_description),
    category: checkedCategoryName(product.category),
    // Without a picture a new product shows the placeholder, as one the price list creates does.
    image: await checkedImage(app, product.image ?? NEW_PRODUCT_IMAGE),
    variants,
  };
}

export async function checkedProductPatch(app: FastifyInstance, patch: ProductPatch): Promise<ProductPatch> {
  return somethingToChange({
    ...patch,
    art: ifGiven(patch.art, (art) => filled(art, 'Артикул')),
    name: ifGiven(patch.name, (name) => filled(name, 'Название')),
    description: optionalText(patch.description),
    big_description: optionalText(patch.big_description),
    category: ifGiven(patch.category, checkedCategoryName),
    image: patch.image === undefined ? undefined : await checkedImage(app, patch.image),
  });
}

export function checkedCategoryPatch(patch: CategoryPatch): CategoryPatch {
  return somethingToChange({ ...patch, name: ifGiven(patch.name, checkedCategoryName) });
}

/** A blank link is no link. */
function checkedUrl(url: string | null): string | null {
  const text = url?.trim();
  if (!text) return null;
  const problem = bannerUrlProblem(text);
  if (problem) throw unprocessable(problem);
  return text;
}

export async function checkedBanner(app: FastifyInstance, banner: BannerFields): Promise<BannerFields> {
  return { ...banner, image: await checkedImage(app, banner.image), url: checkedUrl(banner.url ?? null) };
}

export async function checkedBannerPatch(app: FastifyInstance, patch: BannerPatch): Promise<BannerPatch> {
  return somethingToChange({
    ...patch,
    image: patch.image === undefined ? undefined : await checkedImage(app, patch.image),
    url: ifGiven(patch.url, checkedUrl),
  });
}
