// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../../theme/antd-pages.generated.css';
import './authDialog.css';
import { Alert, Button, Form, Grid, Input, Modal, Spin, Tabs } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { MESSAGES } from '@shared/messages';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { authDialogClosed, authTabChanged, selectAuthDialog, type AuthTab } from './authDialogSlice';
import { SignedUpNotice } from './ConfirmEmailNotice';
import { ConsentField } from './ConsentField';
import { EmailField } from './EmailField';
import { confirmationRule, newPasswordRules } from './formRules';
import { logIn, register } from './sessionThunks';

// Only who forgot the password needs it.
const ForgotPassword = lazy(() => import(/* webpackChunkName: "forgot-password" */ './ForgotPassword'));

interface AuthFields {
  email: string;
  password: string;
  confirm?: string;
  consent?: boolean;
}

export function AuthDialog() {
  const { open, tab } = useAppSelector(selectAuthDialog);
  const dispatch = useAppDispatch();
  const [form] = Form.useForm<AuthFields>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [forgotten, setForgotten] = useState(false);
  // Signed up: the dialog stays to say what to do with the confirmation letter.
  const [signedUp, setSignedUp] = useState(false);
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
    setForgotten(false);
    setSignedUp(false);
    dispatch(authDialogClosed());
  };
  const signedUpSeen = useCallback(() => {
    setSignedUp(false);
    dispatch(authDialogClosed());
  }, [dispatch]);

  const submit = async ({ email, password }: AuthFields) => {
    setLoading(true);
    setFailure(null);
    const credentials = { email: email.trim(), password };
    try {
      await dispatch(registering ? register({ ...credentials, consent: true }) : logIn(credentials)).unwrap();
      form.resetFields();
      if (registering) setSignedUp(true);
      else dispatch(authDialogClosed());
    } catch (error) {
      setFailure(registering ? (serverErrorDetail(error) ?? MESSAGES.registrationFailed) : MESSAGES.loginFailed);
    } finally {
      setLoading(false);
    }
  };

  const submitDisabled = () => {
    const { email, password, confirm, consent } = form.getFieldsValue();
    return (
      loading ||
      form.getFieldError('email').length > 0 ||
      !email ||
      !password ||
      (registering && (!confirm || !consent))
    );
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
        {signedUp ? (
          <SignedUpNotice onDone={signedUpSeen} />
        ) : forgotten ? (
          <Suspense fallback={<Spin />}>
            <ForgotPassword onBack={() => setForgotten(false)} />
          </Suspense>
        ) : (
          <>
            <Tabs
              activeKey={tab}
              onChange={switchTab}
              items={[
                { key: 'login', label: 'Вход' },
                { key: 'register', label: 'Регистрация' },
              ]}
            />
            <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} autoComplete="on">
              <EmailField />
              <Form.Item label="Пароль" name="password" rules={registering ? newPasswordRules : []}>
                <Input.Password autoComplete={registering ? 'new-password' : 'current-password'} />
              </Form.Item>
              {registering && (
                <Form.Item
                  label="Подтвердите пароль"
                  name="confirm"
                  dependencies={['password']}
                  rules={[confirmationRule('password')]}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
              )}
              {registering && <ConsentField />}
              {failure && <Alert type="error" title={failure} showIcon style={{ marginBottom: 16 }} />}
              <Form.Item shouldUpdate noStyle>
                {() => (
                  <Button type="primary" htmlType="submit" block size="large" disabled={submitDisabled()}>
                    {registering ? 'Зарегистрироваться' : 'Войти'}
                  </Button>
                )}
              </Form.Item>
              {!registering && (
                <Button type="link" block onClick={() => setForgotten(true)} className="auth-dialog-link">
                  Забыли пароль?
                </Button>
              )}
            </Form>
          </>
        )}
      </Spin>
    </Modal>
  );
}
