import type { AdminProduct, AdminVariant, ProductCreate, ProductPatch, VariantFields, VariantPatch } from '@shared/api';
import type { Packaging } from '@shared/pricing';
import { normalizeTnved, type BarcodeKind } from '@shared/product-card';
import type { ProductEdits } from './catalogueAdminApi';

/** A row of the variants table; a new row has no id yet. Numbers are null while a field is empty. */
export interface VariantRow {
  id?: number;
  color: string;
  size: number | null;
  price: number | null;
  stock: number | null;
  barcode: string;
  /** How the saved barcode reads (1С's internal codes are kept as they came, unchecked). */
  savedBarcode?: string | null;
  barcodeKind?: BarcodeKind | null;
  marked: boolean;
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
  weight_g: number | null;
}

/** The marketplace card's fields of the form, texts '' while empty. */
export interface ProductCardValues {
  brand: string;
  material: string;
  filler: string;
  age_from: number | null;
  country_of_origin: string;
  tnved: string;
  conformity_document_id: number | null;
}

export interface ProductFormValues extends ProductCardValues {
  art: string;
  name: string;
  description: string;
  big_description: string;
  category?: string;
  popular: boolean;
  image?: string;
  /** A saved product's packaging (a new one is sold by the piece until changed). */
  multiple?: number | null;
  min_quantity?: number | null;
  variants: VariantRow[];
}

export const emptyVariant = (): VariantRow => ({
  color: '',
  size: null,
  price: null,
  stock: 0,
  barcode: '',
  marked: false,
  length_cm: null,
  width_cm: null,
  height_cm: null,
  weight_g: null,
});

const EMPTY_CARD: ProductCardValues = {
  brand: '',
  conformity_document_id: null,
  material: '',
  filler: '',
  age_from: null,
  country_of_origin: '',
  tnved: '',
};

export const NEW_PRODUCT: ProductFormValues = {
  art: '',
  name: '',
  description: '',
  big_description: '',
  popular: false,
  ...EMPTY_CARD,
  variants: [emptyVariant()],
};

const variantRow = (variant: AdminVariant): VariantRow => ({
  id: variant.id,
  color: variant.color,
  size: variant.size,
  price: variant.price,
  stock: variant.stock,
  barcode: variant.barcode ?? '',
  savedBarcode: variant.barcode,
  barcodeKind: variant.barcode_kind,
  marked: variant.marked,
  length_cm: variant.package?.length_cm ?? null,
  width_cm: variant.package?.width_cm ?? null,
  height_cm: variant.package?.height_cm ?? null,
  weight_g: variant.weight_g,
});

export function formValues(product: AdminProduct): ProductFormValues {
  return {
    art: product.art,
    name: product.name,
    description: product.description ?? '',
    big_description: product.big_description ?? '',
    category: product.category,
    popular: product.popular,
    image: product.image,
    multiple: product.multiple,
    min_quantity: product.min_quantity,
    brand: product.brand ?? '',
    material: product.material ?? '',
    filler: product.filler ?? '',
    age_from: product.age_from,
    country_of_origin: product.country_of_origin ?? '',
    tnved: product.tnved ?? '',
    conformity_document_id: product.conformity_document_id,
    variants: product.variants.map(variantRow),
  };
}

// An emptied text is no text: the server keeps null, not ''.
const text = (value: string | undefined) => value?.trim() || null;

/** The form's rules have passed, so every required number is there and a package has all three sides. */
const variantFields = (row: VariantRow): Required<VariantFields> => ({
  color: row.color.trim(),
  size: row.size!,
  price: row.price!,
  stock: row.stock!,
  barcode: text(row.barcode),
  marked: row.marked,
  package:
    row.length_cm === null || row.width_cm === null || row.height_cm === null
      ? null
      : { length_cm: row.length_cm, width_cm: row.width_cm, height_cm: row.height_cm },
  weight_g: row.weight_g,
});

const cardFields = (values: ProductCardValues) => ({
  brand: text(values.brand),
  material: text(values.material),
  filler: text(values.filler),
  age_from: values.age_from,
  country_of_origin: text(values.country_of_origin),
  tnved: values.tnved.trim() ? normalizeTnved(values.tnved) : null,
  // antd's Select clears to undefined: no document is null on the wire.
  conformity_document_id: values.conformity_document_id ?? null,
});

function productFields(values: ProductFormValues): Omit<ProductCreate, 'variants'> {
  return {
    art: values.art.trim(),
    name: values.name.trim(),
    description: text(values.description),
    big_description: text(values.big_description),
    category: values.category!,
    popular: values.popular,
    image: values.image!,
    ...cardFields(values),
  };
}

export function createBody(values: ProductFormValues): ProductCreate {
  return { ...productFields(values), variants: values.variants.map(variantFields) };
}

/** Only the fields whose value differs from the original's, or null when none does. */
function changedFields<T extends object>(original: T, edited: T): Partial<T> | null {
  const changed = Object.fromEntries(
    // JSON: a variant's package is an object, equal when its sides are.
    Object.entries(edited).filter(([key, value]) => JSON.stringify(original[key as keyof T]) !== JSON.stringify(value)),
  ) as Partial<T>;
  return Object.keys(changed).length ? changed : null;
}

type ProductFields = Omit<ProductCreate, 'variants'> & Packaging;

const originalFields = (product: AdminProduct): ProductFields => ({
  art: product.art,
  name: product.name,
  description: product.description,
  big_description: product.big_description,
  category: product.category,
  popular: product.popular,
  image: product.image,
  multiple: product.multiple,
  min_quantity: product.min_quantity,
  brand: product.brand,
  material: product.material,
  filler: product.filler,
  age_from: product.age_from,
  country_of_origin: product.country_of_origin,
  tnved: product.tnved,
  conformity_document_id: product.conformity_document_id,
});

const editedFields = (values: ProductFormValues): ProductFields => ({
  ...productFields(values),
  multiple: values.multiple!,
  min_quantity: values.min_quantity!,
});

/** What saving the edited form must send: the changed product fields and the variants' additions, changes and removals. */
export function productEdits(product: AdminProduct, values: ProductFormValues): ProductEdits {
  const originals = new Map<number, AdminVariant>(product.variants.map((variant) => [variant.id, variant]));
  const kept = new Set(values.variants.flatMap((row) => (row.id === undefined ? [] : [row.id])));
  const changed = values.variants.flatMap((row) => {
    const original = row.id === undefined ? undefined : originals.get(row.id);
    if (!original) return [];
    const originalVariant: Required<VariantFields> = {
      color: original.color,
      size: original.size,
      price: original.price,
      stock: original.stock,
      barcode: original.barcode,
      marked: original.marked,
      package: original.package,
      weight_g: original.weight_g,
    };
    const patch: VariantPatch | null = changedFields(originalVariant, variantFields(row));
    return patch ? [{ id: original.id, patch }] : [];
  });
  return {
    id: product.id,
    product: changedFields(originalFields(product), editedFields(values)) as ProductPatch | null,
    added: values.variants.filter((row) => row.id === undefined).map(variantFields),
    changed,
    removed: product.variants.filter(({ id }) => !kept.has(id)).map(({ id }) => id),
  };
}

export const hasEdits = ({ product, added, changed, removed }: ProductEdits): boolean =>
  Boolean(product || added.length || changed.length || removed.length);
