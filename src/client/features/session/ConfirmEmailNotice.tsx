import { Alert, Button, Flex, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { EMAIL_CONFIRMATION_MESSAGES } from '@shared/account';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useResendConfirmationMutation } from './emailConfirmationApi';
import { useOrderLimits } from './orderLimits';

/**
 * What a buyer who has not confirmed the address yet must do before ordering
 * (REQUIRE_EMAIL_CONFIRMATION), with «Отправить письмо ещё раз»; nothing once confirmed or when the
 * shop does not ask for it. Shown after sign-up, in the cart, at checkout and in the profile.
 */
export function ConfirmEmailNotice() {
  const { mustConfirmEmail } = useOrderLimits();
  const [resend, { isLoading, data, error }] = useResendConfirmationMutation();
  if (!mustConfirmEmail) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="confirm-email-notice"
      title="Подтвердите адрес почты"
      description={
        <Flex vertical gap="small" align="start">
          <span>{EMAIL_CONFIRMATION_MESSAGES.required}</span>
          <Button onClick={() => void resend()} loading={isLoading}>
            Отправить письмо ещё раз
          </Button>
          <span role="status">
            {data && <Typography.Text type="success">{data.detail}</Typography.Text>}
            {error && (
              <Typography.Text type="danger">
                {serverErrorDetail(error) ?? 'Не удалось отправить письмо. Попробуйте позже.'}
              </Typography.Text>
            )}
          </span>
        </Flex>
      }
    />
  );
}

/**
 * What the sign-up dialog says once the account is made: what to do with the letter, or nothing
 * (`onDone` at once) when the shop does not ask for a confirmation.
 */
export function SignedUpNotice({ onDone }: { onDone(): void }) {
  const { known, mustConfirmEmail } = useOrderLimits();
  useEffect(() => {
    if (known && !mustConfirmEmail) onDone();
  }, [known, mustConfirmEmail, onDone]);
  if (!mustConfirmEmail) return <Spin />;
  return (
    <Flex vertical gap="middle">
      <ConfirmEmailNotice />
      <Button type="primary" block size="large" onClick={onDone}>
        Понятно
      </Button>
    </Flex>
  );
}
