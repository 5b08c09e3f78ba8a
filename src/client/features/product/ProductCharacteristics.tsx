import { Descriptions, type DescriptionsProps } from 'antd';
import type { ProductPage, VariantCard } from '@shared/api';
import { formatCalendarDay } from '@shared/dates';
import { ageLabel, CONFORMITY_DOCUMENT_LABELS, packageLabel } from '@shared/product-card';

type Item = NonNullable<DescriptionsProps['items']>[number];

/** The rows that have a value: a characteristic the shop has not filled in is left out, not shown empty. */
const known = (rows: [label: string, value: string | null | undefined][]): Item[] =>
  rows.flatMap(([label, value]) => (value ? [{ key: label, label, children: value }] : []));

/**
 * What a reseller needs for a marketplace card, of the product and of the chosen colour and size:
 * brand, material, filler, age, country, ТН ВЭД, the conformity document, the barcode, the
 * package and its weight, and whether the goods are under Честный знак marking.
 */
export function ProductCharacteristics({
  product,
  variant,
}: {
  product: ProductPage;
  variant: VariantCard | undefined;
}) {
  const document = product.conformity_document;
  const items = known([
    ['Бренд', product.brand],
    ['Материал', product.material],
    ['Наполнитель', product.filler],
    ['Возраст', product.age_from === null ? null : ageLabel(product.age_from)],
    ['Страна производства', product.country_of_origin],
    ['ТН ВЭД', product.tnved],
    [
      document ? CONFORMITY_DOCUMENT_LABELS[document.kind] : '',
      document && `№ ${document.number}, ${document.regulation}, действует до ${formatCalendarDay(document.valid_to)}`,
    ],
    ['Штрихкод', variant?.barcode],
    ['Упаковка', variant?.package && packageLabel(variant.package)],
    ['Вес в упаковке', variant?.weight_g ? `${variant.weight_g} г` : null],
    ['Маркировка', variant?.marked ? 'Подлежит маркировке «Честный знак»' : null],
  ]);
  if (items.length === 0) return null;
  return (
    <section className="product-characteristics">
      <Descriptions title="Характеристики" column={1} size="small" bordered items={items} />
    </section>
  );
}
