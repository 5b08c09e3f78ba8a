import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, InputNumber, Typography } from 'antd';
import { MAX_TIERS, tiersProblem, type PriceTier } from '@shared/pricing';

/** A row of the tiers' form; its numbers are null while empty. */
export interface TierRow {
  from: number | null;
  price: number | null;
}

/** The rows as the API takes them: the rows' own rules have passed, so every number is there. */
export const keptTiers = (rows: TierRow[] = []): PriceTier[] =>
  rows.map(({ from, price }) => ({ from: from!, price: price! }));

export const sameTiers = (one: readonly PriceTier[], other: readonly PriceTier[]) =>
  one.length === other.length &&
  one.every((tier, index) => tier.from === other[index]!.from && tier.price === other[index]!.price);

// No margin under each box: the rows stand close, an error still shows under its box.
const cell = { style: { marginBottom: 0 } };

interface TiersListProps {
  /** The one-piece price the tiers must go below; null when there is none to compare with. */
  onePiece: number | null;
}

/**
 * The form's `tiers`: «от N шт. — цена» rows to add and remove, checked as the server checks them
 * (tiersProblem: from 2 pieces up, quantities rising, prices falling), in its words.
 */
export function TiersList({ onePiece }: TiersListProps) {
  return (
    <Form.List
      name="tiers"
      rules={[
        {
          validator: async (_rule, rows?: TierRow[]) => {
            // An empty box is its own field's error; the set is judged once every row is filled.
            if (!rows || rows.some(({ from, price }) => from === null || price === null)) return;
            const problem = tiersProblem(keptTiers(rows), onePiece);
            if (problem) throw new Error(problem);
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <div role="group" aria-labelledby="tiers-title">
          <Typography.Paragraph strong id="tiers-title" style={{ marginBottom: 8 }}>
            Цены по количеству
          </Typography.Paragraph>
          <Flex vertical gap="small" align="start">
            {fields.length === 0 && (
              <Typography.Text type="secondary">Нет: цена не зависит от количества</Typography.Text>
            )}
            {fields.map((field, index) => (
              <Flex key={field.key} gap="small" align="start" wrap>
                <Form.Item
                  {...cell}
                  name={[field.name, 'from']}
                  rules={[{ required: true, message: 'Укажите количество' }]}
                >
                  <InputNumber
                    aria-label={`Количество, строка ${index + 1}`}
                    prefix="от"
                    suffix="шт."
                    controls={false}
                    style={{ width: 150 }}
                  />
                </Form.Item>
                <Form.Item {...cell} name={[field.name, 'price']} rules={[{ required: true, message: 'Укажите цену' }]}>
                  <InputNumber
                    aria-label={`Цена за штуку, строка ${index + 1}`}
                    suffix="₽"
                    decimalSeparator=","
                    controls={false}
                    style={{ width: 170 }}
                  />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Удалить строку ${index + 1}`}
                  onClick={() => remove(field.name)}
                />
              </Flex>
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              icon={<PlusOutlined aria-hidden />}
              disabled={fields.length >= MAX_TIERS}
              onClick={() => add({ from: null, price: null } satisfies TierRow)}
            >
              Добавить цену по количеству
            </Button>
          </Flex>
        </div>
      )}
    </Form.List>
  );
}
