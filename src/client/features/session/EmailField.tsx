import { Form, Input } from 'antd';
import { EMAIL_RULES } from '@/components/emailRules';

/** The e-mail of the sign-in dialog's forms (SPEC §5): checked on leaving the field. */
export function EmailField() {
  return (
    <Form.Item label="Email" name="email" validateTrigger={['onBlur']} rules={EMAIL_RULES}>
      <Input type="email" autoComplete="email" inputMode="email" />
    </Form.Item>
  );
}
