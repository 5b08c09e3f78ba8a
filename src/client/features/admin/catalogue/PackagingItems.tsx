import { Flex, Form, InputNumber, type FormRule } from 'antd';
import { packagingSettingsProblem } from '@shared/pricing';

// Each box is judged by the server's own rule (its 422 says the same): the кратность alone (as its
// own minimum), the minimum alone while the кратность is unsound, else the two together.
const multipleRules: FormRule[] = [
  { required: true, message: 'Укажите кратность' },
  {
    validator: async (_rule, multiple?: number | null) => {
      const problem =
        typeof multiple === 'number' ? packagingSettingsProblem({ multiple, min_quantity: multiple }) : null;
      if (problem) throw new Error(problem);
    },
  },
];

const minimumRules: FormRule[] = [
  { required: true, message: 'Укажите минимум' },
  ({ getFieldValue }) => ({
    validator: async (_rule, minimum?: number | null) => {
      if (typeof minimum !== 'number') return;
      const multiple: unknown = getFieldValue('multiple');
      const soundMultiple =
        typeof multiple === 'number' && !packagingSettingsProblem({ multiple, min_quantity: multiple });
      const problem = packagingSettingsProblem({ multiple: soundMultiple ? multiple : 1, min_quantity: minimum });
      if (problem) throw new Error(problem);
    },
  }),
];

/** The product form's «Кратность» and «Минимум в строке»: how many pieces a line of it may hold. */
export function PackagingItems() {
  return (
    <Flex gap="middle" wrap>
      <Form.Item
        label="Кратность"
        name="multiple"
        rules={multipleRules}
        extra="Продаётся упаковками по столько штук; 1 — поштучно"
      >
        <InputNumber step={1} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        label="Минимум в строке"
        name="min_quantity"
        dependencies={['multiple']}
        rules={minimumRules}
        extra="Штук одного варианта в заказе не меньше; кратен кратности"
      >
        <InputNumber step={1} style={{ width: 160 }} />
      </Form.Item>
    </Flex>
  );
}
