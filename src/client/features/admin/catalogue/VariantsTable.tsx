import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Table,
  type FormListFieldData,
  type FormRule,
  type InputNumberProps,
  type TableColumnType,
} from 'antd';
import { CATALOGUE_LIMITS, priceProblem } from '@shared/catalogue';
import { emptyVariant, type VariantRow } from './productFormValues';
import './catalogueAdmin.css';
import { emptyTable } from '../tableEmpty';

const { colorMax, sizeMin, sizeMax, priceMax, stockMax } = CATALOGUE_LIMITS;

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
  key: 'size' | 'price' | 'stock';
  title: string;
  /** Names each box for screen readers with its row: «Цена, вариант 2» (the e2e journey finds them so). */
  label: string;
  width: number;
  rules: FormRule[];
  input?: InputNumberProps;
}

/** A column of number boxes, one a variant. */
function numberColumn({ key, title, label, width, rules, input }: NumberColumn): TableColumnType<FormListFieldData> {
  return {
    title,
    key,
    width,
    render: (_value, field, index) => (
      <Form.Item {...cell} name={[field.name, key]} rules={rules}>
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

/** The product's variants (colour, size, price, stock), edited in place; Form.List keeps their ids. */
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
