import { Form, Input, Select } from 'antd';
import type { LegalEntity } from '@shared/api';
import { COMPANY_MESSAGES, LEGAL_ENTITY_KIND_LABELS } from '@shared/company';
import type { CheckoutFields } from './checkoutFields';

/** A detail of the chosen legal entity, shown as the order will carry it and not typed: the company keeps it. */
function ReadOnlyDetail({ id, label, value }: { id: string; label: string; value: string | null | undefined }) {
  return (
    // Not optional (the form marks those): the order carries it, from the legal entity.
    <Form.Item label={label} htmlFor={id} required>
      <Input id={id} value={value ?? ''} readOnly variant="filled" />
    </Form.Item>
  );
}

/**
 * «Юрлицо»: which of the company's legal entities the order is for (the API lists the last used
 * first), with its name, ИНН and КПП filled in from it. The order sends its id; the server takes
 * the details from it.
 */
export function LegalEntityField({ entities }: { entities: LegalEntity[] }) {
  const form = Form.useFormInstance<CheckoutFields>();
  const chosenId = Form.useWatch('legal_entity_id', form);
  const chosen = entities.find((entity) => entity.id === chosenId);
  return (
    <>
      <Form.Item
        label="Юрлицо"
        name="legal_entity_id"
        rules={[{ required: true, message: COMPANY_MESSAGES.legalEntityNeeded }]}
      >
        <Select
          options={entities.map((entity) => ({
            value: entity.id,
            label: `${entity.name} (${LEGAL_ENTITY_KIND_LABELS[entity.kind]}, ИНН ${entity.inn})`,
          }))}
        />
      </Form.Item>
      <ReadOnlyDetail id="checkout-company-name" label="Название компании" value={chosen?.name} />
      <ReadOnlyDetail id="checkout-company-inn" label="ИНН" value={chosen?.inn} />
      {chosen?.kpp && <ReadOnlyDetail id="checkout-company-kpp" label="КПП" value={chosen.kpp} />}
    </>
  );
}
