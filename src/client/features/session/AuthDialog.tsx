// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../../theme/antd-pages.generated.css';
import { Alert, Button, Form, Grid, Input, Modal, Spin, Tabs } from 'antd';
import { useState } from 'react';
import { EMAIL_PATTERN } from '@shared/api';
import { MESSAGES } from '@shared/messages';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { authDialogClosed, authTabChanged, selectAuthDialog, type AuthTab } from './authDialogSlice';
import { logIn, register } from './sessionThunks';

interface AuthFields {
  email: string;
  password: string;
  confirm?: string;
}

export function AuthDialog() {
  const { open, tab } = useAppSelector(selectAuthDialog);
  const dispatch = useAppDispatch();
  const [form] = Form.useForm<AuthFields>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const fullScreen = !Grid.useBreakpoint().sm;
  const registering = tab === 'register';

  const switchTab = (next: string) => {
    setFailure(null);
    form.resetFields(['confirm']);
    dispatch(authTabChanged(next as AuthTab));
  };

  const close = () => {
    if (loading) return;
    setFailure(null);
    dispatch(authDialogClosed());
  };

  const submit = async ({ email, password }: AuthFields) => {
    setLoading(true);
    setFailure(null);
    const credentials = { email: email.trim(), password };
    try {
      await dispatch(registering ? register(credentials) : logIn(credentials)).unwrap();
      form.resetFields();
      dispatch(authDialogClosed());
    } catch (error) {
      setFailure(registering ? (serverErrorDetail(error) ?? MESSAGES.registrationFailed) : MESSAGES.loginFailed);
    } finally {
      setLoading(false);
    }
  };

  const submitDisabled = () => {
    const { email, password, confirm } = form.getFieldsValue();
    return loading || form.getFieldError('email').length > 0 || !email || !password || (registering && !confirm);
  };

  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      title="Вход в личный кабинет"
      width={fullScreen ? '100%' : 440}
      rootClassName={fullScreen ? 'auth-dialog auth-dialog--full-screen' : 'auth-dialog'}
      destroyOnHidden
    >
      <Spin spinning={loading} description="Подождите...">
        <Tabs
          activeKey={tab}
          onChange={switchTab}
          items={[
            { key: 'login', label: 'Вход' },
            { key: 'register', label: 'Регистрация' },
          ]}
        />
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} autoComplete="on">
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
          <Form.Item label="Пароль" name="password">
            <Input.Password autoComplete={registering ? 'new-password' : 'current-password'} />
          </Form.Item>
          {registering && (
            <Form.Item
              label="Подтвердите пароль"
              name="confirm"
              dependencies={['password']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_rule, value) =>
                    !value || value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(MESSAGES.passwordsDiffer)),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          )}
          {failure && <Alert type="error" title={failure} showIcon style={{ marginBottom: 16 }} />}
          <Form.Item shouldUpdate noStyle>
            {() => (
              <Button type="primary" htmlType="submit" block size="large" disabled={submitDisabled()}>
                {registering ? 'Зарегистрироваться' : 'Войти'}
              </Button>
            )}
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
