import type { AdminProduct, AdminVariant, ProductCreate, ProductPatch, VariantFields, VariantPatch } from '@shared/api';
import type { Packaging } from '@shared/pricing';
import type { ProductEdits } from './catalogueAdminApi';

/** A row of the variants table; a new row has no id yet. Numbers are null while a field is empty. */
export interface VariantRow {
  id?: number;
  color: string;
  size: number | null;
  price: number | null;
  stock: number | null;
}

export interface ProductFormValues {
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

export const emptyVariant = (): VariantRow => ({ color: '', size: null, price: null, stock: 0 });

export const NEW_PRODUCT: ProductFormValues = {
  art: '',
  name: '',
  description: '',
  big_description: '',
  popular: false,
  variants: [emptyVariant()],
};

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
    variants: product.variants.map(({ id, color, size, price, stock }) => ({ id, color, size, price, stock })),
  };
}

// An emptied text is no text: the server keeps null, not ''.
const text = (value: string | undefined) => value?.trim() || null;

/** The form's rules have passed, so every number is there. */
const variantFields = ({ color, size, price, stock }: VariantRow): VariantFields => ({
  color: color.trim(),
  size: size!,
  price: price!,
  stock: stock!,
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
  };
}

export function createBody(values: ProductFormValues): ProductCreate {
  return { ...productFields(values), variants: values.variants.map(variantFields) };
}

/** Only the fields whose value differs from the original's, or null when none does. */
function changedFields<T extends object>(original: T, edited: T): Partial<T> | null {
  const changed = Object.fromEntries(
    Object.entries(edited).filter(([key, value]) => original[key as keyof T] !== value),
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
    const { id: _id, ...originalVariant } = original;
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
