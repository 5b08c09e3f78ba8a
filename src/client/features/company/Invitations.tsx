import { Alert, App, Button, Flex, Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import type { Invitation, InvitationFields } from '@shared/api';
import { COMPANY_ROLE_DESCRIPTIONS, COMPANY_ROLE_LABELS, INVITATION_TTL_DAYS, type CompanyRole } from '@shared/company';
import { formatLocalDate } from '@shared/dates';
import { LIMITS } from '@shared/limits';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { daysCount } from '@/components/format';
import { useInviteEmployeeMutation, useRevokeInvitationMutation } from './companyApi';
import { ROLE_OPTIONS } from './roleOptions';
import { EMAIL_RULES } from '@/components/emailRules';

/** The owner's invitation of an employee by e-mail, in a role; the letter's link works INVITATION_TTL_DAYS days. */
export function InvitationForm() {
  const [form] = Form.useForm<InvitationFields>();
  const role = Form.useWatch('role', form) as CompanyRole | undefined;
  const [invite, { isLoading }] = useInviteEmployeeMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const { message } = App.useApp();

  const submit = async ({ email, role }: InvitationFields) => {
    setFailure(null);
    try {
      await invite({ email: email.trim(), role }).unwrap();
      form.resetFields(['email']);
      void message.success(`Приглашение отправлено на ${email.trim()}`);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось отправить приглашение');
    }
  };

  return (
    <Form
      form={form}
      name="company-invitation"
      layout="vertical"
      initialValues={{ role: 'purchaser' }}
      onFinish={submit}
      onValuesChange={() => setFailure(null)}
      requiredMark={false}
      aria-label="Пригласить сотрудника"
    >
      <Typography.Title level={3} className="company-subtitle">
        Пригласить сотрудника
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Ссылка из письма действует {daysCount(INVITATION_TTL_DAYS)}.
      </Typography.Paragraph>
      <Form.Item label="E-mail сотрудника" name="email" validateTrigger={['onBlur', 'onSubmit']} rules={EMAIL_RULES}>
        <Input type="email" autoComplete="off" inputMode="email" maxLength={LIMITS.emailMax} />
      </Form.Item>
      <Form.Item label="Роль" name="role" extra={role && COMPANY_ROLE_DESCRIPTIONS[role]}>
        <Select
          options={ROLE_OPTIONS}
          optionRender={(option) => (
            <Flex vertical className="company-role-option">
              <span>{option.label}</span>
              <Typography.Text type="secondary">
                {COMPANY_ROLE_DESCRIPTIONS[option.value as CompanyRole]}
              </Typography.Text>
            </Flex>
          )}
        />
      </Form.Item>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" loading={isLoading}>
        Отправить приглашение
      </Button>
    </Form>
  );
}

/** The invitations not yet answered, each with «Отозвать» (its link stops working). */
export function PendingInvitations({ invitations }: { invitations: Invitation[] }) {
  const [revoke] = useRevokeInvitationMutation();
  const { message } = App.useApp();
  if (invitations.length === 0) return null;

  const revokeOne = async (invitation: Invitation) => {
    try {
      await revoke(invitation.id).unwrap();
      void message.success(`Приглашение для ${invitation.email} отозвано`);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось отозвать приглашение');
    }
  };

  return (
    <section aria-labelledby="company-invitations-title">
      <Typography.Title level={3} id="company-invitations-title" className="company-subtitle">
        Ожидают ответа
      </Typography.Title>
      <ul className="company-list">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="company-list-line">
            <span>
              {invitation.email} · {COMPANY_ROLE_LABELS[invitation.role]}
              <Typography.Text type="secondary" className="company-list-note">
                ссылка действует до {formatLocalDate(invitation.expires_at)}
              </Typography.Text>
            </span>
            <Button onClick={() => void revokeOne(invitation)} aria-label={`Отозвать приглашение ${invitation.email}`}>
              Отозвать
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
