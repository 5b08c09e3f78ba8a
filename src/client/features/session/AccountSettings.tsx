import { DeleteOutlined, DownloadOutlined, KeyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { confirmationRule, newPasswordRules } from './formRules';
import { useLogout } from './useLogout';
import { useChangePasswordMutation, useDeleteAccountMutation, useExportAccountMutation } from './accountApi';

interface PasswordChangeFields {
  current_password: string;
  new_password: string;
  confirm: string;
}

const failureText = (error: unknown, fallback: string) => serverErrorDetail(error) ?? fallback;

/** «Сменить пароль»: the current one, the new one twice; the other sessions of the account end. */
function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<PasswordChangeFields>();
  const [changePassword, { isLoading, error, reset }] = useChangePasswordMutation();
  const { message } = App.useApp();
  const close = () => {
    setOpen(false);
    form.resetFields();
    reset();
  };
  const submit = async ({ current_password, new_password }: PasswordChangeFields) => {
    const result = await changePassword({ current_password, new_password });
    if ('error' in result) return;
    close();
    void message.success('Пароль изменён. На других устройствах нужно войти заново.');
  };
  return (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setOpen(true)}>
        Сменить пароль
      </Button>
      <Modal
        open={open}
        title="Смена пароля"
        onCancel={close}
        okText="Сменить пароль"
        cancelText="Отмена"
        onOk={() => form.submit()}
        confirmLoading={isLoading}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            label="Текущий пароль"
            name="current_password"
            rules={[{ required: true, message: 'Введите текущий пароль' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item label="Новый пароль" name="new_password" rules={newPasswordRules}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="Подтвердите пароль"
            name="confirm"
            dependencies={['new_password']}
            rules={[{ required: true, message: 'Повторите новый пароль' }, confirmationRule('new_password')]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          {error && <Alert type="error" title={failureText(error, 'Не удалось сменить пароль.')} showIcon />}
        </Form>
      </Modal>
    </>
  );
}

/** «Скачать мои данные»: everything the shop keeps about the buyer, as a JSON file. */
function ExportButton() {
  const [exportAccount, { isLoading }] = useExportAccountMutation();
  const { message } = App.useApp();
  const download = async () => {
    const result = await exportAccount();
    if ('error' in result) void message.error(failureText(result.error, 'Не удалось скачать данные.'));
  };
  return (
    <Button icon={<DownloadOutlined />} onClick={download} loading={isLoading}>
      Скачать мои данные
    </Button>
  );
}

/** «Удалить аккаунт», confirmed with the password; then the session ends and the shopper is home. */
function DeleteAccountButton() {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  const [deleteAccount, { isLoading, error, reset }] = useDeleteAccountMutation();
  const logout = useLogout();
  const close = () => {
    setOpen(false);
    reset();
  };
  const submit = async ({ password }: { password: string }) => {
    const result = await deleteAccount({ password });
    if (!('error' in result)) await logout();
  };
  return (
    <>
      <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)}>
        Удалить аккаунт
      </Button>
      <Modal
        open={open}
        title="Удалить аккаунт?"
        onCancel={close}
        okText="Удалить аккаунт"
        // Red text, not a red fill: white on antd's dark-theme red reads at 3.4:1.
        okType="default"
        okButtonProps={{ danger: true }}
        cancelText="Отмена"
        onOk={() => form.submit()}
        confirmLoading={isLoading}
        destroyOnHidden
      >
        <Typography.Paragraph>
          Аккаунт, его адреса, реквизиты и корзина будут удалены без возможности восстановления. Заказы останутся у
          магазина для бухгалтерского учёта, но без ваших имени, телефона, адреса и реквизитов.
        </Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            label="Пароль для подтверждения"
            name="password"
            rules={[{ required: true, message: 'Введите пароль' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {error && <Alert type="error" title={failureText(error, 'Не удалось удалить аккаунт.')} showIcon />}
        </Form>
      </Modal>
    </>
  );
}

/** The profile's account section: the password, the buyer's data, and a danger zone. */
export function AccountSettings() {
  return (
    <section className="account-settings" aria-labelledby="account-settings-title">
      <h2 id="account-settings-title" className="section-title">
        Аккаунт и персональные данные
      </h2>
      <div className="account-actions">
        <ChangePasswordButton />
        <ExportButton />
      </div>
      <div className="account-danger-zone">
        <Typography.Title level={3}>Опасная зона</Typography.Title>
        <Typography.Paragraph type="secondary">
          Удаление аккаунта — это и отзыв согласия на обработку персональных данных.
        </Typography.Paragraph>
        <DeleteAccountButton />
      </div>
    </section>
  );
}
