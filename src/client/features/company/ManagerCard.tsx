import { MailOutlined, MessageOutlined, PhoneOutlined } from '@ant-design/icons';
import { Card, Flex, Typography } from 'antd';
import type { ManagerContact } from '@shared/api';
import { CONTACT_EMAIL } from '@/api/config';

/** A phone number as a tel: address: its digits and a leading plus, nothing a dialler would stumble on. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** Only a web address becomes a link: a manager's profile is typed by people, and `javascript:` is a URI too. */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/** The shop's manager who looks after the company, with every way to reach them the shop knows. */
export function ManagerCard({ manager }: { manager: ManagerContact | null }) {
  return (
    <Card title="Ваш менеджер" size="small" className="company-card">
      {manager ? (
        <Flex vertical gap="small" align="start">
          <Typography.Text strong>{manager.name}</Typography.Text>
          {manager.phone && (
            <a href={telHref(manager.phone)}>
              <PhoneOutlined aria-hidden /> {manager.phone}
            </a>
          )}
          <a href={`mailto:${manager.email}`}>
            <MailOutlined aria-hidden /> {manager.email}
          </a>
          {manager.messenger_url && isWebAddress(manager.messenger_url) && (
            <a href={manager.messenger_url} target="_blank" rel="noopener noreferrer">
              <MessageOutlined aria-hidden /> Написать в мессенджер
            </a>
          )}
        </Flex>
      ) : (
        <Typography.Paragraph className="company-card-text">
          Персональный менеджер пока не назначен. С вопросами о заказах пишите на{' '}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
        </Typography.Paragraph>
      )}
    </Card>
  );
}
