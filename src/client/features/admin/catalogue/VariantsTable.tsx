import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Table,
  Tag,
  type FormListFieldData,
  type FormRule,
  type InputNumberProps,
  type TableColumnType,
} from 'antd';
import { CATALOGUE_LIMITS, priceProblem } from '@shared/catalogue';
import { isValidEan13, PRODUCT_CARD_LIMITS } from '@shared/product-card';
import { emptyVariant, type VariantRow } from './productFormValues';
import './catalogueAdmin.css';
import { emptyTable } from '../tableEmpty';

const { colorMax, sizeMin, sizeMax, priceMax, stockMax } = CATALOGUE_LIMITS;
const { sideCmMax, weightGMax, barcodeMax } = PRODUCT_CARD_LIMITS;

// The server's rules (VariantBody, and priceProblem shared with it): a size and a stock are whole
// numbers, a price is above 0 with at most kopecks.
const colorRules: FormRule[] = [{ required: true, whitespace: true, message: 'Укажите цвет' }];
const sizeRules: FormRule[] = [
  { required: true, message: 'Укажите размер' },
  { type: 'integer', min: sizeMin, max: sizeMax, message: `Размер — целое число от ${sizeMin} до ${sizeMax}` },
];
const priceRules: FormRule[] = [
  { required: true, message: 'Укажите цену' },
  {
    validator: async (_rule, price?: number | null) => {
      const problem = typeof price === 'number' ? priceProblem(price) : null;
      if (problem) throw new Error(problem);
    },
  },
  { type: 'number', max: priceMax, message: 'Слишком большая цена' },
];
const stockRules: FormRule[] = [
  { required: true, message: 'Укажите остаток' },
  { type: 'integer', min: 0, max: stockMax, message: 'Остаток — целое число, не меньше нуля' },
];

// A typed barcode is an EAN-13 with its check digit right; the code the variant has (1С's internal
// or carton code among them) may stay as it is.
const barcodeRule =
  (savedBarcode: string | null | undefined): FormRule =>
  () => ({
    validator: async (_rule, barcode?: string) => {
      const code = barcode?.trim();
      if (!code || code === savedBarcode) return;
      if (!/^\d{13}$/.test(code)) throw new Error('Штрихкод EAN-13 — 13 цифр');
      if (!isValidEan13(code)) throw new Error('Неверная контрольная цифра штрихкода');
    },
  });
// The package: all three sides or none, each above 0 in centimetres with one decimal at most.
const PACKAGE_SIDES = ['length_cm', 'width_cm', 'height_cm'] as const;
const sideRules = (row: number): FormRule[] => [
  { type: 'number', min: 0.1, max: sideCmMax, message: `От 0,1 до ${sideCmMax} см` },
  ({ getFieldValue }) => ({
    validator: async (_rule, side?: number | null) => {
      const given = PACKAGE_SIDES.some((key) => typeof getFieldValue(['variants', row, key]) === 'number');
      if ((side === null || side === undefined) && given) throw new Error('Укажите все три размера');
    },
  }),
];
const weightRules: FormRule[] = [
  { type: 'integer', min: 1, max: weightGMax, message: 'Вес — целое число граммов больше нуля' },
];

// A colour and size may appear once per product, as the server requires.
const variantsRule = {
  validator: async (_rule: unknown, rows?: VariantRow[]) => {
    if (!rows?.length) throw new Error('Добавьте хотя бы один вариант');
    const seen = new Set<string>();
    for (const { color, size } of rows) {
      const key = JSON.stringify([color?.trim(), size]);
      if (color?.trim() && size !== null && seen.has(key))
        throw new Error(`Вариант «${color.trim()}, ${size} см» указан дважды`);
      seen.add(key);
    }
  },
};

// Cells sit in table rows: no margin under each field, the error still shows under it.
const cell = { style: { marginBottom: 0 } };

interface NumberColumn {
  key: 'size' | 'price' | 'stock' | 'length_cm' | 'width_cm' | 'height_cm' | 'weight_g';
  title: string;
  /** Names each box for screen readers with its row: «Цена, вариант 2» (the e2e journey finds them so). */
  label: string;
  width: number;
  /** The box's rules; a function when they read the variant's other fields (its row's number). */
  rules: FormRule[] | ((row: number) => FormRule[]);
  input?: InputNumberProps;
}

/** A column of number boxes, one a variant. */
function numberColumn({ key, title, label, width, rules, input }: NumberColumn): TableColumnType<FormListFieldData> {
  return {
    title,
    key,
    width,
    render: (_value, field, index) => (
      <Form.Item {...cell} name={[field.name, key]} rules={typeof rules === 'function' ? rules(field.name) : rules}>
        <InputNumber
          controls={false}
          aria-label={`${label}, вариант ${index + 1}`}
          style={{ width: '100%' }}
          {...input}
        />
      </Form.Item>
    ),
  };
}

/**
 * A variant's barcode; the code 1С sent that is not a GTIN (an internal or carton code) is marked
 * «внутренний код»: kept, but never put on a marketplace card.
 */
function BarcodeCell({ name, index }: { name: number; index: number }) {
  const form = Form.useFormInstance();
  const row = form.getFieldValue(['variants', name]) as VariantRow | undefined;
  const current = Form.useWatch(['variants', name, 'barcode'], form) as string | undefined;
  const internal = row?.barcodeKind === 'internal' && current === row.savedBarcode;
  return (
    <Flex vertical gap={4}>
      <Form.Item {...cell} name={[name, 'barcode']} rules={[barcodeRule(row?.savedBarcode)]}>
        <Input aria-label={`Штрихкод, вариант ${index + 1}`} maxLength={barcodeMax} inputMode="numeric" />
      </Form.Item>
      {internal && <Tag style={{ alignSelf: 'start' }}>внутренний код</Tag>}
    </Flex>
  );
}

/**
 * The product's variants (colour, size, price, stock, and the marketplace card's barcode, marking,
 * package and weight), edited in place; Form.List keeps their ids.
 */
export function VariantsTable() {
  return (
    <Form.List name="variants" rules={[variantsRule]}>
      {(fields, { add, remove }, { errors }) => (
        <>
          <Table<FormListFieldData>
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={fields}
            scroll={{ x: 'max-content' }}
            locale={emptyTable('Нет вариантов')}
            columns={[
              {
                title: 'Цвет',
                key: 'color',
                render: (_value, field, index) => (
                  <Form.Item {...cell} name={[field.name, 'color']} rules={colorRules}>
                    <Input aria-label={`Цвет, вариант ${index + 1}`} maxLength={colorMax} />
                  </Form.Item>
                ),
              },
              numberColumn({ key: 'size', title: 'Размер, см', label: 'Размер', width: 130, rules: sizeRules }),
              numberColumn({
                key: 'price',
                title: 'Цена, ₽',
                label: 'Цена',
                width: 170,
                rules: priceRules,
                input: { decimalSeparator: ',' },
              }),
              numberColumn({ key: 'stock', title: 'Остаток, шт.', label: 'Остаток', width: 140, rules: stockRules }),
              {
                title: 'Штрихкод',
                key: 'barcode',
                width: 190,
                render: (_value, field, index) => <BarcodeCell name={field.name} index={index} />,
              },
              {
                title: 'Маркировка',
                key: 'marked',
                width: 110,
                render: (_value, field, index) => (
                  <Form.Item {...cell} name={[field.name, 'marked']} valuePropName="checked">
                    <Checkbox aria-label={`Подлежит маркировке, вариант ${index + 1}`} />
                  </Form.Item>
                ),
              },
              ...(
                [
                  ['length_cm', 'Длина, см', 'Длина упаковки'],
                  ['width_cm', 'Ширина, см', 'Ширина упаковки'],
                  ['height_cm', 'Высота, см', 'Высота упаковки'],
                ] as const
              ).map(([key, title, label]) =>
                numberColumn({
                  key,
                  title,
                  label,
                  width: 110,
                  rules: sideRules,
                  input: { decimalSeparator: ',', precision: 1, step: 0.1 },
                }),
              ),
              numberColumn({ key: 'weight_g', title: 'Вес, г', label: 'Вес', width: 110, rules: weightRules }),
              {
                title: <span className="admin-visually-hidden">Удалить</span>,
                key: 'remove',
                width: 56,
                render: (_value, field, index) => (
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Удалить вариант ${index + 1}`}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                  />
                ),
              },
            ]}
          />
          <Form.ErrorList errors={errors} />
          <Button
            icon={<PlusOutlined aria-hidden />}
            onClick={() => add(emptyVariant())}
            style={{ alignSelf: 'start' }}
          >
            Добавить вариант
          </Button>
        </>
      )}
    </Form.List>
  );
}
