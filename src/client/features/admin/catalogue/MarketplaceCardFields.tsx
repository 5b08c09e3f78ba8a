import { Form, Input, InputNumber, Select, type FormRule } from 'antd';
import { formatCalendarDay } from '@shared/dates';
import { CONFORMITY_DOCUMENT_LABELS, normalizeTnved, PRODUCT_CARD_LIMITS } from '@shared/product-card';
import { useGetConformityDocumentsQuery } from '../documents/conformityDocumentsApi';

const { textMax, ageFromMax } = PRODUCT_CARD_LIMITS;

// The server's rules (ProductCardFields): a ТН ВЭД code is 10 digits, spaces between its groups
// allowed; the age is whole years from 0 to 18.
const tnvedRules: FormRule[] = [
  {
    validator: async (_rule, code?: string) => {
      if (code?.trim() && !normalizeTnved(code)) throw new Error('Код ТН ВЭД — 10 цифр, например 9503 00 410 0');
    },
  },
];
const ageRules: FormRule[] = [
  { type: 'integer', min: 0, max: ageFromMax, message: `Возраст — целое число лет от 0 до ${ageFromMax}` },
];

const TEXTS = [
  ['brand', 'Бренд'],
  ['material', 'Материал'],
  ['filler', 'Наполнитель'],
  ['country_of_origin', 'Страна производства'],
] as const;

/** «Карточка для маркетплейсов»: what a marketplace card asks of the product, part of the product form. */
export function MarketplaceCardFields() {
  const { data: documents = [], isFetching } = useGetConformityDocumentsQuery();
  const documentOptions = documents.map((document) => ({
    value: document.id,
    label: `${CONFORMITY_DOCUMENT_LABELS[document.kind]} № ${document.number}, до ${formatCalendarDay(document.valid_to)}${document.expired ? ' — истёк' : ''}`,
  }));
  return (
    <>
      {TEXTS.map(([name, label]) => (
        <Form.Item key={name} label={label} name={name}>
          <Input maxLength={textMax} autoComplete="off" style={{ maxWidth: 480 }} />
        </Form.Item>
      ))}
      <Form.Item label="Возраст от, лет" name="age_from" rules={ageRules}>
        <InputNumber controls={false} style={{ width: 120 }} />
      </Form.Item>
      <Form.Item
        label="Код ТН ВЭД"
        name="tnved"
        rules={tnvedRules}
        extra="10 цифр; мягкие игрушки — 9503 00 410 0 (подлежат маркировке)"
      >
        <Input maxLength={20} autoComplete="off" style={{ maxWidth: 240 }} />
      </Form.Item>
      <Form.Item
        label="Документ соответствия"
        name="conformity_document_id"
        extra="Сертификаты и декларации — в разделе «Документы соответствия»"
      >
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={isFetching}
          options={documentOptions}
          placeholder="Не указан"
          style={{ maxWidth: 480 }}
        />
      </Form.Item>
    </>
  );
}
