// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import './ResetPasswordPage.css';
import { Alert, Button, Card, Form, Input, Result, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { ACCOUNT_MESSAGES, RESET_TOKEN_PARAM } from '@shared/account';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from '@/components/PageTitle';
import { useAppDispatch } from '@/hooks/reduxHooks';
import { useConfirmPasswordResetMutation } from '@/features/session/accountApi';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { confirmationRule, newPasswordRules } from '@/features/session/formRules';

interface ResetFields {
  password: string;
  confirm: string;
}

/** `/reset-password?token=…`, the link of a reset e-mail: a new password, then the sign-in dialog. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get(RESET_TOKEN_PARAM);
  const dispatch = useAppDispatch();
  const [confirmReset, { isLoading, isSuccess, error }] = useConfirmPasswordResetMutation();
  const logIn = () => dispatch(authDialogOpened('login'));

  const submit = async ({ password }: ResetFields) => {
    const result = await confirmReset({ token: token!, password });
    if (!('error' in result)) logIn();
  };

  return (
    <div className="reset-password">
      <PageTitle name="Новый пароль" />
      <Card>
        {isSuccess ? (
          <Result
            status="success"
            title="Пароль изменён"
            subTitle="Войдите с новым паролем. Все прежние сессии этого аккаунта завершены."
            extra={
              <Button type="primary" onClick={logIn}>
                Войти
              </Button>
            }
          />
        ) : (
          <>
            <Typography.Title level={1}>Новый пароль</Typography.Title>
            {token ? (
              <Form<ResetFields> layout="vertical" onFinish={submit} requiredMark={false}>
                <Form.Item label="Новый пароль" name="password" rules={newPasswordRules}>
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
                <Form.Item
                  label="Подтвердите пароль"
                  name="confirm"
                  dependencies={['password']}
                  rules={[{ required: true, message: 'Повторите пароль' }, confirmationRule('password')]}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
                {error && (
                  <Alert
                    type="error"
                    title={serverErrorDetail(error) ?? 'Не удалось сменить пароль. Попробуйте позже.'}
                    showIcon
                    style={{ marginBottom: 16 }}
                  />
                )}
                <Button type="primary" htmlType="submit" block size="large" loading={isLoading}>
                  Сохранить пароль
                </Button>
              </Form>
            ) : (
              <Alert type="error" title={ACCOUNT_MESSAGES.resetLinkInvalid} showIcon />
            )}
          </>
        )}
      </Card>
    </div>
  );
}
