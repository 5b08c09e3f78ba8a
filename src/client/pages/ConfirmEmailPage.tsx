// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import './ResetPasswordPage.css';
import { Alert, Card, Result, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { EMAIL_CONFIRMATION_MESSAGES, EMAIL_CONFIRMATION_TOKEN_PARAM } from '@shared/account';
import { PAGE_PATHS } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { ButtonLink } from '@/components/ButtonLink';
import { PageTitle } from '@/components/PageTitle';
import { useConfirmEmailMutation } from '@/features/session/emailConfirmationApi';

/** `/confirm-email?token=…`, the link of the confirmation letter: confirms at once, signed in or not. */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get(EMAIL_CONFIRMATION_TOKEN_PARAM);
  const [confirm, { isUninitialized, isLoading, isSuccess, error }] = useConfirmEmailMutation();

  // Once: the link is spent by the first call, and a second (React's development double effect)
  // would answer that it is no longer valid.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void confirm({ token });
  }, [token, confirm]);

  return (
    <div className="reset-password">
      <PageTitle name="Подтверждение адреса почты" />
      <Card>
        <Typography.Title level={1}>Подтверждение адреса почты</Typography.Title>
        {!token || error ? (
          <Alert
            type="error"
            showIcon
            title={(error && serverErrorDetail(error)) ?? EMAIL_CONFIRMATION_MESSAGES.linkInvalid}
          />
        ) : isUninitialized || isLoading ? (
          <Spin aria-label="Подтверждаем адрес" />
        ) : (
          isSuccess && (
            <Result
              status="success"
              title={EMAIL_CONFIRMATION_MESSAGES.confirmed}
              extra={
                <ButtonLink type="primary" to={PAGE_PATHS.catalogue}>
                  Перейти в каталог
                </ButtonLink>
              }
            />
          )
        )}
      </Card>
    </div>
  );
}
