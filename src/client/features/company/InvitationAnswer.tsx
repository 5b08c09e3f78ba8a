import { skipToken } from '@reduxjs/toolkit/query';
import { Alert, Button, Card, Descriptions, Form, Input, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { InvitationPreview } from '@shared/api';
import { COMPANY_MESSAGES, COMPANY_ROLE_DESCRIPTIONS, COMPANY_ROLE_LABELS } from '@shared/company';
import { formatLocalDateTime } from '@shared/dates';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { authDialogOpened } from '@/features/session/authDialogSlice';
import { confirmationRule, newPasswordRules } from '@/features/session/formRules';
import { selectSessionInitialised, selectUser } from '@/features/session/sessionSlice';
import { logIn } from '@/features/session/sessionThunks';
import { useAcceptInvitationMutation, usePreviewInvitationQuery } from './companyApi';
import { COMPANY_SECTION_PATH } from './companyPaths';

/** The server's word on a link that does not work, or ours when it sent none. */
function previewFailure(error: unknown): string {
  const status = (error as { status?: unknown } | undefined)?.status;
  const fallback =
    status === 410
      ? COMPANY_MESSAGES.invitationGone
      : status === 404
        ? COMPANY_MESSAGES.invitationNotFound
        : 'Не удалось открыть приглашение. Попробуйте ещё раз позже.';
  return serverErrorDetail(error) ?? fallback;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

interface AcceptFields {
  password?: string;
  confirm?: string;
  consent?: boolean;
}

/**
 * «Принять приглашение»: a new address makes its account with a password and is signed in with it;
 * an existing account, signed in, just consents. Then the profile opens at the company.
 */
function AcceptForm({
  token,
  invitation,
  newAccount,
  consentField,
}: {
  token: string;
  invitation: InvitationPreview;
  newAccount: boolean;
  consentField: ReactNode;
}) {
  const [accept, { isLoading: accepting }] = useAcceptInvitationMutation();
  const [signingIn, setSigningIn] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const submit = async ({ password }: AcceptFields) => {
    setFailure(null);
    let email: string;
    try {
      ({ email } = await accept({ token, consent: true, ...(newAccount ? { password } : {}) }).unwrap());
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось принять приглашение. Попробуйте ещё раз.');
      return;
    }
    if (newAccount) {
      setSigningIn(true);
      try {
        await dispatch(logIn({ email, password: password! })).unwrap();
      } catch {
        setSigningIn(false);
        setFailure('Аккаунт создан, но войти не удалось: войдите с новым паролем.');
        dispatch(authDialogOpened('login'));
        return;
      }
    }
    navigate(COMPANY_SECTION_PATH, { replace: true });
  };

  return (
    <Form<AcceptFields>
      name="invitation-accept"
      layout="vertical"
      onFinish={submit}
      requiredMark={false}
      onValuesChange={() => setFailure(null)}
    >
      {newAccount && (
        <>
          <Typography.Paragraph>{COMPANY_MESSAGES.passwordNeeded}</Typography.Paragraph>
          {/* The address the account gets, for the browser's password manager to save the password under. */}
          <Form.Item label="E-mail" htmlFor="invitation-email">
            <Input id="invitation-email" value={invitation.email} readOnly autoComplete="username" />
          </Form.Item>
          <Form.Item label="Пароль" name="password" rules={newPasswordRules}>
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
        </>
      )}
      {consentField}
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" block size="large" loading={accepting || signingIn}>
        Принять приглашение
      </Button>
    </Form>
  );
}

/** What the invitee may do: accept, sign in first, or see that the link belongs to another address. */
function Answer({
  token,
  invitation,
  consentField,
}: {
  token: string;
  invitation: InvitationPreview;
  consentField: ReactNode;
}) {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  if (user && !sameAddress(user.email, invitation.email))
    return <Alert type="warning" showIcon title={COMPANY_MESSAGES.wrongAccount} />;
  if (!user && invitation.account_exists)
    return (
      <Alert
        type="info"
        showIcon
        title={COMPANY_MESSAGES.accountExists}
        action={
          <Button type="primary" onClick={() => dispatch(authDialogOpened('login'))}>
            Войти
          </Button>
        }
      />
    );
  return <AcceptForm token={token} invitation={invitation} newAccount={!user} consentField={consentField} />;
}

/**
 * The invitation's page: which company invites which address, in which role and until when, and
 * the invitee's answer. `token` comes from the link's fragment (the page reads it); `consentField`
 * is the consent every new account gives (the page composes it).
 */
export function InvitationAnswer({ token, consentField }: { token: string | null; consentField: ReactNode }) {
  const initialised = useAppSelector(selectSessionInitialised);
  const preview = usePreviewInvitationQuery(token ?? skipToken);
  if (!token)
    return (
      <Alert
        type="error"
        showIcon
        title={COMPANY_MESSAGES.invitationNotFound}
        description="Откройте ссылку из письма целиком: в ней есть код приглашения."
      />
    );
  // Until the session is known the page cannot tell a signed-in employee from a new one.
  if (preview.isLoading || !initialised) return <PageLoading />;
  if (!preview.data) return <Alert type="error" showIcon title={previewFailure(preview.error)} />;
  const invitation = preview.data;
  return (
    <Card>
      <Typography.Paragraph>
        Компания <Typography.Text strong>{invitation.company_name}</Typography.Text> приглашает вас работать с магазином
        от её имени.
      </Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'company', label: 'Компания', children: invitation.company_name },
          {
            key: 'role',
            label: 'Роль',
            children: `${COMPANY_ROLE_LABELS[invitation.role]} — ${COMPANY_ROLE_DESCRIPTIONS[invitation.role]}`,
          },
          { key: 'email', label: 'E-mail', children: invitation.email },
          { key: 'expires', label: 'Действует до', children: formatLocalDateTime(invitation.expires_at) },
        ]}
      />
      <Answer token={token} invitation={invitation} consentField={consentField} />
    </Card>
  );
}
