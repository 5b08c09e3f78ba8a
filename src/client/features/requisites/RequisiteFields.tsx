import { Form, Input, type FormRule } from 'antd';
import { LIMITS } from '@shared/limits';
import { innProblem, kppProblem } from '@shared/requisites';
import { blankToNull } from './requisitesValues';

const innRule = {
  validator: async (_rule: unknown, value: string | undefined) => {
    const inn = blankToNull(value);
    const problem = inn && innProblem(inn);
    if (problem) throw new Error(problem);
  },
};

const kppRule: FormRule = ({ getFieldValue }) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    const kpp = blankToNull(value);
    const problem = kpp && kppProblem(kpp, blankToNull(getFieldValue('company_inn')));
    if (problem) throw new Error(problem);
  },
});

/**
 * The buyer's name, phone and company details, named as the API names them, inside any antd Form:
 * the checkout's and the profile's. The checkout marks name and phone as required (SPEC §5 checks
 * them with its own message); in the profile every field may stay empty.
 */
export function RequisiteFields({ contactRequired = false }: { contactRequired?: boolean }) {
  return (
    <>
      <Form.Item label="Имя" name="contact_name" required={contactRequired}>
        <Input autoComplete="name" maxLength={LIMITS.nameMax} />
      </Form.Item>
      <Form.Item label="Телефон" name="contact_phone" required={contactRequired}>
        <Input type="tel" autoComplete="tel" maxLength={LIMITS.phoneMax} />
      </Form.Item>
      <Form.Item label="Название компании" name="company_name">
        <Input autoComplete="organization" maxLength={LIMITS.companyNameMax} />
      </Form.Item>
      <Form.Item label="ИНН" name="company_inn" rules={[innRule]}>
        <Input maxLength={LIMITS.innMax} inputMode="numeric" />
      </Form.Item>
      <Form.Item label="КПП" name="company_kpp" dependencies={['company_inn']} rules={[kppRule]}>
        <Input maxLength={LIMITS.kppLength} inputMode="numeric" />
      </Form.Item>
    </>
  );
}
