import { Form, Input } from 'antd';
import { EMAIL_PATTERN } from '@shared/api';
import { MESSAGES } from '@shared/messages';

/** The e-mail of the sign-in dialog's forms (SPEC §5): checked on leaving the field. */
export function EmailField() {
  return (
    <Form.Item
      label="Email"
      name="email"
      validateTrigger={['onBlur']}
      rules={[
        { required: true, whitespace: true, message: MESSAGES.emailRequired },
        { pattern: EMAIL_PATTERN, message: MESSAGES.emailInvalid },
      ]}
    >
      <Input type="email" autoComplete="email" inputMode="email" />
    </Form.Item>
  );
}
