import { Alert, Button, Form } from 'antd';
import { ACCOUNT_MESSAGES } from '@shared/account';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useRequestPasswordResetMutation } from './accountApi';
import { EmailField } from './EmailField';

/**
 * «Забыли пароль?» in the sign-in dialog: asks for the e-mail and sends the reset link. The answer
 * is the same whether or not the address has an account, so the form cannot tell who is a customer.
 */
export default function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [requestReset, { isLoading, isSuccess, error }] = useRequestPasswordResetMutation();
  const submit = ({ email }: { email: string }) => {
    void requestReset({ email: email.trim() });
  };

  if (isSuccess) {
    return (
      <>
        <Alert type="success" title={ACCOUNT_MESSAGES.resetRequested} showIcon style={{ marginBottom: 16 }} />
        <Button block size="large" onClick={onBack}>
          Вернуться ко входу
        </Button>
      </>
    );
  }
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      <p>Укажите e-mail, с которым вы регистрировались: мы пришлём на него ссылку для сброса пароля.</p>
      <EmailField />
      {error && (
        <Alert
          type="error"
          title={serverErrorDetail(error) ?? 'Не удалось отправить письмо. Попробуйте позже.'}
          showIcon
          style={{ marginBottom: 16 }}
        />
      )}
      <Button type="primary" htmlType="submit" block size="large" loading={isLoading}>
        Отправить ссылку
      </Button>
      <Button type="link" block onClick={onBack} className="auth-dialog-link">
        Вернуться ко входу
      </Button>
    </Form>
  );
}
