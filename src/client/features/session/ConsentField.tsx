import './consentField.css';
import { Checkbox, Form } from 'antd';
import { Link } from 'react-router';
import { ACCOUNT_MESSAGES } from '@shared/account';
import { PAGE_PATHS } from '@shared/paths';

/**
 * The consent to the processing of personal data (152-ФЗ) that every new account gives, with the
 * policy's link, inside any antd Form as its `consent` field: the sign-up's and the invitation's.
 */
export function ConsentField() {
  return (
    <Form.Item
      name="consent"
      valuePropName="checked"
      rules={[
        {
          validator: (_rule, value) =>
            value ? Promise.resolve() : Promise.reject(new Error(ACCOUNT_MESSAGES.consentRequired)),
        },
      ]}
    >
      <Checkbox className="consent-field">
        Я согласен на обработку персональных данных в соответствии с{' '}
        {/* A new tab: what the form holds stays as it is while the policy is read. */}
        <Link to={PAGE_PATHS.privacy} target="_blank" rel="noopener">
          политикой конфиденциальности
        </Link>
      </Checkbox>
    </Form.Item>
  );
}
