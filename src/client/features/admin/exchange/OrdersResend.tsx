import { SendOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import type { ExchangeResendResult } from '@shared/api';
import { countOf } from '@shared/plurals';
import { MAX_ID } from '@shared/schemas/common';
import { RESEND_MAX_ORDERS } from '@shared/schemas/exchange';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useResendOrdersToOneCMutation } from './exchangeAdminApi';

const ordersCount = countOf({ one: 'заказ', few: 'заказа', many: 'заказов' });

/** An order's number as typed: digits only, an id the server can have. */
const isOrderNumber = (text: string) => /^[1-9]\d*$/.test(text) && Number(text) <= MAX_ID;

type Outcome = { type: 'success' | 'warning'; result: ExchangeResendResult } | { type: 'error'; detail: string };

function outcomeText(result: ExchangeResendResult): string {
  const resent = result.resent
    ? `${ordersCount(result.resent)} уйдёт в 1С при следующем обмене.`
    : 'Ни один заказ не отправлен.';
  const missing = result.not_found.length ? ` Не найдены: ${result.not_found.map((id) => `№${id}`).join(', ')}.` : '';
  return resent + missing;
}

/** «Отправить заказы в 1С снова»: orders 1С lost or must take again go with the next exchange. */
export function OrdersResend({ pending }: { pending: number }) {
  const [numbers, setNumbers] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [resend, { isLoading }] = useResendOrdersToOneCMutation();

  const send = async () => {
    setOutcome(null);
    try {
      const result = await resend(numbers.map(Number)).unwrap();
      setNumbers([]);
      setOutcome({ type: result.not_found.length ? 'warning' : 'success', result });
    } catch (error) {
      setOutcome({ type: 'error', detail: serverErrorDetail(error) ?? 'Не удалось отправить заказы' });
    }
  };

  return (
    <section className="admin-section" aria-labelledby="exchange-resend">
      <Typography.Title level={2} id="exchange-resend">
        Отправить заказы в 1С снова
      </Typography.Title>
      <Typography.Paragraph>Ждут отправки: {ordersCount(pending)}.</Typography.Paragraph>
      <Typography.Paragraph type="secondary" id="exchange-resend-hint">
        Номера заказов (только цифры), через пробел, запятую или Enter — до {RESEND_MAX_ORDERS} за раз. Они уйдут в 1С
        при следующем обмене, даже если 1С их уже получила.
      </Typography.Paragraph>
      <Flex gap={8} wrap align="start">
        <Select
          mode="tags"
          aria-label="Номера заказов"
          aria-describedby="exchange-resend-hint"
          value={numbers}
          onChange={(typed: string[]) => {
            setOutcome(null);
            setNumbers([...new Set(typed.map((text) => text.trim()).filter(isOrderNumber))]);
          }}
          tokenSeparators={[' ', ',', ';']}
          maxCount={RESEND_MAX_ORDERS}
          notFoundContent={null}
          placeholder="Например, 1024 1025"
          style={{ width: 'min(420px, 100%)' }}
        />
        <Button
          type="primary"
          icon={<SendOutlined aria-hidden />}
          disabled={numbers.length === 0}
          loading={isLoading}
          onClick={() => void send()}
        >
          Отправить снова
        </Button>
      </Flex>
      {outcome && (
        <Alert
          type={outcome.type}
          showIcon
          role="status"
          title={outcome.type === 'error' ? outcome.detail : outcomeText(outcome.result)}
          style={{ marginTop: 12 }}
        />
      )}
    </section>
  );
}
