import { EditOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, InputNumber, Table, Typography, type FormRule, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { AdminProduct, AdminVariant, PriceType } from '@shared/api';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import { formatRubles } from '@shared/money';
import { priceProblem } from '@shared/catalogue';
import { PRODUCT_TIER_NOTE, tierLabel, type PriceTier } from '@shared/pricing';
import { EditDialog } from '../catalogue/EditDialog';
import { emptyTable } from '../tableEmpty';
import { useGetPriceTypesQuery, useSaveProductTiersMutation, useSaveVariantPricesMutation } from './pricesAdminApi';
import { keptTiers, sameTiers, TiersList, type TierRow } from './TiersList';

const variantName = ({ color, size }: AdminVariant) => `${color}, ${size} см`;

const typeTitle = ({ name, is_default }: PriceType) => (is_default ? `${name} (по умолчанию)` : name);

/**
 * A variant's one-piece price and its own tiers in a type: the default type's price is the
 * variant's, another's is null when the variant has none of it.
 */
function variantPrice(variant: AdminVariant, type: PriceType): { price: number | null; tiers: PriceTier[] } {
  const entry = variant.prices.find(({ price_type_id }) => price_type_id === type.id);
  return { price: type.is_default ? variant.price : (entry?.price ?? null), tiers: entry?.tiers ?? [] };
}

const productTiers = (product: AdminProduct, typeId: number): PriceTier[] =>
  product.tiers.find(({ price_type_id }) => price_type_id === typeId)?.tiers ?? [];

/** «от 12 шт. — 450,00 ₽», one a line. */
function TierLines({ tiers }: { tiers: readonly PriceTier[] }) {
  return tiers.map((tier) => (
    <Typography.Text key={tier.from} type="secondary">
      {tierLabel(tier)}
    </Typography.Text>
  ));
}

interface VariantPriceForm {
  price?: number | null;
  tiers: TierRow[];
}

// Empty is allowed (no price of the type: its buyers pay the default type's), but not under tiers.
const priceRules: FormRule[] = [
  ({ getFieldValue }) => ({
    validator: async (_rule, price?: number | null) => {
      if (typeof price === 'number') {
        const problem = priceProblem(price);
        if (problem) throw new Error(problem);
      } else if ((getFieldValue('tiers') as TierRow[] | undefined)?.length) {
        throw new Error('Укажите цену за штуку: цены по количеству действуют только вместе с ней');
      }
    },
  }),
  { type: 'number', max: CATALOGUE_LIMITS.priceMax, message: 'Слишком большая цена' },
];

/** The tiers of the dialog's type, below its one-piece price as it is typed. */
function VariantTiers({ fixedPrice }: { fixedPrice: number | null }) {
  const form = Form.useFormInstance<VariantPriceForm>();
  const typed = Form.useWatch('price', form);
  return <TiersList onePiece={fixedPrice ?? (typeof typed === 'number' ? typed : null)} />;
}

interface VariantPriceDialogProps {
  product: AdminProduct;
  variant: AdminVariant;
  type: PriceType;
  onClose(): void;
}

// Mounted afresh for each opening, so its form starts from the variant's prices.
function VariantPriceDialog({ product, variant, type, onClose }: VariantPriceDialogProps) {
  const [savePrices, { isLoading }] = useSaveVariantPricesMutation();
  const current = variantPrice(variant, type);

  const save = async (values: VariantPriceForm) => {
    // The default type's price is the variant's own, changed in the variants' table with the form.
    const price = type.is_default ? variant.price : (values.price ?? null);
    // A РРЦ is shown, never sold: no tiers.
    const tiers = type.is_rrp ? [] : keptTiers(values.tiers);
    if (price === current.price && sameTiers(tiers, current.tiers)) return null;
    await savePrices({
      productId: product.id,
      variantId: variant.id,
      prices: [{ price_type_id: type.id, price, ...(type.is_rrp ? {} : { tiers }) }],
    }).unwrap();
    return 'Цены сохранены';
  };

  return (
    <EditDialog<VariantPriceForm>
      title={`${type.name}: ${variantName(variant)}`}
      initialValues={{ price: current.price, tiers: current.tiers }}
      saving={isLoading}
      save={save}
      failureText="Не удалось сохранить цены"
      onClose={onClose}
    >
      {type.is_default ? (
        <Typography.Paragraph>
          Цена за штуку: {formatRubles(variant.price)} — цена варианта, меняется в таблице вариантов.
        </Typography.Paragraph>
      ) : (
        <Form.Item
          label="Цена за штуку, ₽"
          name="price"
          rules={priceRules}
          extra={
            type.is_rrp
              ? 'Рекомендованная розничная: покупатели видят её рядом со своей ценой. Пусто — не показывается'
              : 'Пусто — покупатели этого типа платят цену типа по умолчанию'
          }
        >
          <InputNumber controls={false} decimalSeparator="," style={{ width: 200 }} />
        </Form.Item>
      )}
      {!type.is_rrp && <VariantTiers fixedPrice={type.is_default ? variant.price : null} />}
    </EditDialog>
  );
}

interface ProductTiersDialogProps {
  product: AdminProduct;
  type: PriceType;
  onClose(): void;
}

function ProductTiersDialog({ product, type, onClose }: ProductTiersDialogProps) {
  const [saveTiers, { isLoading }] = useSaveProductTiersMutation();
  const current = productTiers(product, type.id);

  const save = async (values: { tiers: TierRow[] }) => {
    const tiers = keptTiers(values.tiers);
    if (sameTiers(tiers, current)) return null;
    // The other types' tiers go along as they are: the product's tiers are sent whole.
    const others = product.tiers.filter(({ price_type_id }) => price_type_id !== type.id);
    await saveTiers({ id: product.id, tiers: [...others, { price_type_id: type.id, tiers }] }).unwrap();
    return 'Цены по количеству сохранены';
  };

  return (
    <EditDialog<{ tiers: TierRow[] }>
      title={`${type.name}: цены по количеству для всего товара`}
      initialValues={{ tiers: current }}
      saving={isLoading}
      save={save}
      failureText="Не удалось сохранить цены по количеству"
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        Количество считается по всему товару: {PRODUCT_TIER_NOTE}. Вариант, чья цена ниже цены по количеству, продаётся
        по своей.
      </Typography.Paragraph>
      <TiersList onePiece={null} />
    </EditDialog>
  );
}

type Editing = { type: PriceType; variant?: AdminVariant };

/**
 * «Цены» of a saved product: each variant's price in each type with its tiers, and the product's
 * tiers per type, each changed in a dialog and saved at once, apart from the form above.
 */
export function ProductPrices({ product }: { product: AdminProduct }) {
  const { data: types = [], isFetching, isError } = useGetPriceTypesQuery();
  const [editing, setEditing] = useState<Editing | null>(null);
  const sold = types.filter(({ is_rrp }) => !is_rrp);

  const variantColumns: TableColumnsType<AdminVariant> = [
    { title: 'Вариант', key: 'variant', render: (_value, variant) => variantName(variant) },
    ...types.map((type): TableColumnsType<AdminVariant>[number] => ({
      title: typeTitle(type),
      key: type.id,
      render: (_value, variant) => {
        const { price, tiers } = variantPrice(variant, type);
        return (
          <Flex gap="small" align="start" justify="space-between">
            <Flex vertical>
              <span>{price === null ? '—' : formatRubles(price)}</span>
              <TierLines tiers={tiers} />
            </Flex>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={`Изменить цены «${type.name}»: ${variantName(variant)}`}
              onClick={() => setEditing({ type, variant })}
            />
          </Flex>
        );
      },
    })),
  ];

  const productColumns: TableColumnsType<PriceType> = [
    { title: 'Тип цен', key: 'type', render: (_value, type) => typeTitle(type) },
    {
      title: 'Цены по количеству',
      key: 'tiers',
      render: (_value, type) => {
        const tiers = productTiers(product, type.id);
        return tiers.length ? (
          <Flex vertical>
            <TierLines tiers={tiers} />
          </Flex>
        ) : (
          'Нет'
        );
      },
    },
    {
      title: <span className="admin-visually-hidden">Действия</span>,
      key: 'edit',
      width: 56,
      render: (_value, type) => (
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={`Изменить цены по количеству «${type.name}» для всего товара`}
          onClick={() => setEditing({ type })}
        />
      ),
    },
  ];

  return (
    <section className="admin-section" aria-labelledby="product-prices">
      <Typography.Title level={2} id="product-prices">
        Цены
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Цена типа по умолчанию — цена варианта из таблицы выше; «—» — цены этого типа нет, его покупатели платят цену
        типа по умолчанию. Цены по типам сохраняются сразу, отдельно от кнопки «Сохранить».
      </Typography.Paragraph>
      {isError && <Alert type="error" showIcon title="Не удалось загрузить типы цен" />}
      <Table<AdminVariant>
        rowKey="id"
        size="small"
        pagination={false}
        loading={isFetching}
        dataSource={product.variants}
        columns={variantColumns}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Нет вариантов')}
      />
      <Typography.Title level={3}>Цены по количеству для всего товара</Typography.Title>
      <Typography.Paragraph type="secondary">
        Количество считается по всем вариантам в корзине вместе: {PRODUCT_TIER_NOTE}. Цены по количеству варианта — в
        его ячейке выше.
      </Typography.Paragraph>
      <Table<PriceType>
        rowKey="id"
        size="small"
        pagination={false}
        loading={isFetching}
        dataSource={sold}
        columns={productColumns}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Типов цен нет')}
      />
      {editing &&
        (editing.variant ? (
          <VariantPriceDialog
            product={product}
            variant={editing.variant}
            type={editing.type}
            onClose={() => setEditing(null)}
          />
        ) : (
          <ProductTiersDialog product={product} type={editing.type} onClose={() => setEditing(null)} />
        ))}
    </section>
  );
}
