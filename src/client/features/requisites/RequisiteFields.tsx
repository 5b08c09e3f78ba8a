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
 * The buyer's name and phone, named as the API names them; the checkout requires them (SPEC §5
 * checks them with its own message).
 */
export function ContactFields({ required = false }: { required?: boolean }) {
  return (
    <>
      <Form.Item label="Имя" name="contact_name" required={required}>
        <Input autoComplete="name" maxLength={LIMITS.nameMax} />
      </Form.Item>
      <Form.Item label="Телефон" name="contact_phone" required={required}>
        <Input type="tel" autoComplete="tel" maxLength={LIMITS.phoneMax} />
      </Form.Item>
    </>
  );
}

/** The company's name, ИНН and КПП typed by hand, checked by the tax service's rules. */
export function CompanyFields() {
  return (
    <>
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

/**
 * The buyer's name, phone and company details inside any antd Form: the profile's, where every
 * field may stay empty. The checkout composes the two parts itself (a company with legal entities
 * picks one of them instead of typing its details).
 */
export function RequisiteFields() {
  return (
    <>
      <ContactFields />
      <CompanyFields />
    </>
  );
}
