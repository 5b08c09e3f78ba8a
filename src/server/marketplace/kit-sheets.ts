// The values of the kit's sheets: one row per variant, each column's value by the mapping
// (mapping-v1.ts) in the sheet's units.
import { cardBarcode } from '../../shared/product-card';
import {
  colourArticle,
  photosOfColour,
  variantArticle,
  type CardVariant,
  type KitPhoto,
  type ProductCard,
} from '../domain/marketplace-card';
import {
  COUNTRY_NAMES,
  marketplaceAge,
  PRODUCT_TYPE,
  YES_NO,
  type KitField,
  type KitSheet,
  type LengthUnit,
  type WeightUnit,
} from './mapping-v1';

export type KitCell = string | number | null;

const lengthIn = (mm: number | null, unit: LengthUnit) => (mm === null ? null : unit === 'mm' ? mm : mm / 10);
const weightIn = (grams: number | null, unit: WeightUnit) =>
  grams === null ? null : unit === 'g' ? grams : grams / 1000;
const countryName = (country: string | null) =>
  country === null ? null : (COUNTRY_NAMES[country.trim().toLowerCase()] ?? country.trim());

/** What a photo column says of a photo: its public address, else its file's name in the kit. */
export type PhotoCell = (photo: KitPhoto) => string;

/** The column's value for one variant of the card. */
export function kitCell(
  field: KitField,
  card: ProductCard,
  variant: CardVariant,
  sheet: KitSheet,
  photoCell: PhotoCell,
): KitCell {
  const documentOf = (kind: 'declaration' | 'certificate') =>
    card.document?.kind === kind ? card.document.number : null;
  const photos = () => photosOfColour(card, variant.color).map(photoCell);
  switch (field) {
    case 'article':
      return variantArticle(card, variant);
    case 'colourArticle':
      return colourArticle(card, variant.color);
    case 'model':
      return card.art;
    case 'name':
      return card.name;
    case 'type':
      return PRODUCT_TYPE;
    case 'category':
      return card.category;
    case 'brand':
      return card.brand;
    case 'colour':
      return variant.color;
    case 'size':
      return variant.size;
    case 'description':
      return card.description;
    case 'material':
      return card.material;
    case 'filler':
      return card.filler;
    case 'age':
      return card.ageFrom === null ? null : marketplaceAge(card.ageFrom);
    case 'country':
      return countryName(card.countryOfOrigin);
    case 'barcode':
      // A code of 1С's own is no barcode a marketplace takes: the seller gets a GTIN or nothing.
      return cardBarcode(variant.barcode);
    case 'length':
      return lengthIn(variant.packageLengthMm, sheet.units.length);
    case 'width':
      return lengthIn(variant.packageWidthMm, sheet.units.length);
    case 'height':
      return lengthIn(variant.packageHeightMm, sheet.units.length);
    case 'weight':
      return weightIn(variant.weightG, sheet.units.weight);
    case 'tnved':
      return card.tnved;
    case 'marked':
      return variant.marked ? YES_NO.yes : YES_NO.no;
    case 'declaration':
      return documentOf('declaration');
    case 'certificate':
      return documentOf('certificate');
    case 'documentValidTo':
      return card.document?.validTo ?? null;
    case 'rrp':
      return variant.rrp === null ? null : Number(variant.rrp);
    case 'mainPhoto':
      return photos()[0] ?? null;
    case 'otherPhotos':
      return photos().slice(1).join('; ') || null;
    case 'photos':
      return photos().join('; ') || null;
    case 'photoFiles':
      return (
        photosOfColour(card, variant.color)
          .map((photo) => photo.file)
          .join('; ') || null
      );
  }
}

/** The sheet's row of one variant, in its columns' order. */
export const kitRow = (sheet: KitSheet, card: ProductCard, variant: CardVariant, photoCell: PhotoCell): KitCell[] =>
  sheet.columns.map(({ field }) => kitCell(field, card, variant, sheet, photoCell));
