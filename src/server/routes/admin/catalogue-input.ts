import type { FastifyInstance } from 'fastify';
import type {
  BannerFields,
  BannerPatch,
  CategoryPatch,
  PhotosChange,
  ProductCreate,
  ProductPatch,
  VariantFields,
  VariantPatch,
} from '../../../shared/api';
import { bannerUrlProblem, priceProblem } from '../../../shared/catalogue';
import { isValidEan13, normalizeTnved } from '../../../shared/product-card';
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

/** Blank descriptions (and card texts) are none. */
const optionalText = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

function checkedPrice(price: number): number {
  const problem = priceProblem(price);
  if (problem) throw unprocessable(problem);
  return price;
}

const checkedColor = (color: string) => filled(color, 'Цвет');
export const checkedCategoryName = (name: string) => filled(name, 'Категория');

/** A typed barcode is an EAN-13 with its check digit right; a blank one is none. */
function checkedBarcode(barcode: string | null): string | null {
  const code = barcode?.trim();
  if (!code) return null;
  if (!/^\d{13}$/.test(code)) throw unprocessable(`Штрихкод «${code}»: нужен EAN-13 — 13 цифр`);
  if (!isValidEan13(code)) {
    throw unprocessable(`Штрихкод ${code}: неверная контрольная цифра — проверьте, не ошиблись ли в цифрах`);
  }
  return code;
}

/** Centimetres with one decimal at most: the package is stored in whole millimetres. */
function checkedPackage(pack: VariantFields['package']): VariantFields['package'] {
  const sides = pack && [pack.length_cm, pack.width_cm, pack.height_cm];
  if (sides?.some((side) => Math.abs(side * 10 - Math.round(side * 10)) > 1e-9)) {
    throw unprocessable(
      'Габариты упаковки указываются в сантиметрах с точностью до миллиметра (один знак после запятой)',
    );
  }
  return pack;
}

export function checkedVariant(variant: VariantFields): VariantFields {
  return {
    ...variant,
    color: checkedColor(variant.color),
    price: checkedPrice(variant.price),
    barcode: ifGiven(variant.barcode, checkedBarcode),
    package: ifGiven(variant.package, checkedPackage),
  };
}

export function checkedVariantPatch(patch: VariantPatch): VariantPatch {
  return somethingToChange({
    ...patch,
    color: ifGiven(patch.color, checkedColor),
    price: ifGiven(patch.price, checkedPrice),
    barcode: ifGiven(patch.barcode, checkedBarcode),
    package: ifGiven(patch.package, checkedPackage),
  });
}

function checkedTnved(tnved: string | null): string | null {
  if (!tnved?.trim()) return null;
  const code = normalizeTnved(tnved);
  if (!code) throw unprocessable(`Код ТН ВЭД «${tnved.trim()}»: нужно 10 цифр, например 9503 00 410 0`);
  return code;
}

/** The marketplace card's fields of a product or of its change, those given. */
const checkedCard = (product: ProductPatch) => ({
  brand: optionalText(product.brand),
  material: optionalText(product.material),
  filler: optionalText(product.filler),
  country_of_origin: optionalText(product.country_of_origin),
  tnved: ifGiven(product.tnved, checkedTnved),
});

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
  const barcodes = new Set<string>();
  for (const { barcode } of variants) {
    if (barcode && barcodes.has(barcode)) throw unprocessable(`Штрихкод ${barcode} указан у двух вариантов`);
    if (barcode) barcodes.add(barcode);
  }
  return {
    ...product,
    ...checkedCard(product),
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
    ...checkedCard(patch),
    art: ifGiven(patch.art, (art) => filled(art, 'Артикул')),
    name: ifGiven(patch.name, (name) => filled(name, 'Название')),
    description: optionalText(patch.description),
    big_description: optionalText(patch.big_description),
    category: ifGiven(patch.category, checkedCategoryName),
    image: patch.image === undefined ? undefined : await checkedImage(app, patch.image),
  });
}

/**
 * Each set of photos once (the product's own, null, and each colour), each picture once in a set,
 * and every picture one the shop serves. The colours are the service's to check against the variants.
 */
export async function checkedPhotos(app: FastifyInstance, sets: PhotosChange): Promise<PhotosChange> {
  const colors = new Set<string | null>();
  const checked: PhotosChange = [];
  for (const set of sets) {
    const color = set.color === null ? null : checkedColor(set.color);
    if (colors.has(color)) {
      throw unprocessable(color === null ? 'Фото товара указаны дважды' : `Фото цвета «${color}» указаны дважды`);
    }
    colors.add(color);
    const repeated = set.images.find((name, i) => set.images.indexOf(name) !== i);
    if (repeated) throw unprocessable(`Картинка «${repeated}» указана в одном наборе фото дважды`);
    const images: string[] = [];
    for (const name of set.images) images.push(await checkedImage(app, name));
    checked.push({ color, images });
  }
  return checked;
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
