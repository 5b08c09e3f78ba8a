import { Alert, App, Button, Card, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { formatMoscowDateTime } from '@shared/dates';
import { VISITORS_FEED_PATH } from '@shared/feeds';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useGetCompanyFeedQuery, useIssueCompanyFeedMutation, useRevokeCompanyFeedMutation } from './companyApi';

/**
 * The owner's «Фид товаров (YML)»: the company's secret feed address — made, replaced (the old one
 * stops at once) or turned off; shown once, when made, as the server keeps only its hash — and the
 * shop's public feed.
 */
export function FeedCard() {
  const { data: feed, isLoading } = useGetCompanyFeedQuery();
  const [issue, issuing] = useIssueCompanyFeedMutation();
  const [revoke, revoking] = useRevokeCompanyFeedMutation();
  const [issuedUrl, setIssuedUrl] = useState<string | null>(null);
  const { message } = App.useApp();

  const makeAddress = async () => {
    try {
      setIssuedUrl((await issue().unwrap()).url);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось получить адрес фида');
    }
  };

  const turnOff = async () => {
    try {
      await revoke().unwrap();
      setIssuedUrl(null);
      void message.success('Адрес фида отключён');
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось отключить адрес фида');
    }
  };

  return (
    <Card title="Фид товаров (YML)" size="small" className="company-card" loading={isLoading}>
      <Flex vertical gap="middle">
        <Typography.Text>
          Товары магазина в формате YML для маркетплейсов и вашего интернет-магазина: ваши цены, рекомендованная
          розничная цена и остатки. Обновляется после изменений каталога.
        </Typography.Text>
        {issuedUrl && (
          <Alert
            type="success"
            showIcon
            title="Скопируйте адрес сейчас: больше он показан не будет"
            description={
              <Typography.Text copyable={{ text: issuedUrl }} code>
                {issuedUrl}
              </Typography.Text>
            }
          />
        )}
        {feed?.active && feed.created_at ? (
          <Typography.Text type="secondary">
            Адрес выдан {formatMoscowDateTime(feed.created_at)}. Адрес секретный: передавайте его только своим сервисам.
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">Адреса фида пока нет.</Typography.Text>
        )}
        <Flex gap="small" wrap>
          {feed?.active ? (
            <>
              <Popconfirm
                title="Заменить адрес фида?"
                description="Прежний адрес перестанет работать сразу."
                okText="Заменить"
                cancelText="Отмена"
                onConfirm={makeAddress}
              >
                <Button loading={issuing.isLoading}>Заменить адрес</Button>
              </Popconfirm>
              <Popconfirm
                title="Отключить фид?"
                description="Адрес перестанет работать."
                okText="Отключить"
                cancelText="Отмена"
                okButtonProps={{ danger: true }}
                onConfirm={turnOff}
              >
                <Button danger loading={revoking.isLoading}>
                  Отключить
                </Button>
              </Popconfirm>
            </>
          ) : (
            <Button type="primary" loading={issuing.isLoading} onClick={() => void makeAddress()}>
              Получить адрес фида
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary">
          Общий фид с ценами для посетителей, без остатков:{' '}
          <Typography.Text copyable>{`${window.location.origin}${VISITORS_FEED_PATH}`}</Typography.Text>
        </Typography.Text>
      </Flex>
    </Card>
  );
}
