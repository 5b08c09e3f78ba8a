import { Result, Typography } from 'antd';
import type { ReactNode } from 'react';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from './PageTitle';

/**
 * An order page with no order to show, the buyer's and the back office's alike: «Заказ не найден»
 * for a bad or unknown number (404), otherwise the server's reason, with the way back.
 */
export function OrderNotShown({ badNumber, error, back }: { badNumber: boolean; error: unknown; back: ReactNode }) {
  const missing = badNumber || (error as { status?: unknown } | undefined)?.status === 404;
  return (
    <Result
      status={missing ? '404' : 'error'}
      title={<Typography.Title>{missing ? 'Заказ не найден' : 'Не удалось загрузить заказ'}</Typography.Title>}
      subTitle={missing ? undefined : serverErrorDetail(error)}
      extra={
        <>
          <PageTitle name="Заказ не найден" />
          {back}
        </>
      }
    />
  );
}
