import { Alert, App, Button, Card, Flex, Form, Input, Typography } from 'antd';
import type { Company } from '@shared/api';
import { COMPANY_MESSAGES, COMPANY_ROLE_DESCRIPTIONS, COMPANY_ROLE_LABELS, mayManageMembers } from '@shared/company';
import { LIMITS } from '@shared/limits';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useRenameCompanyMutation } from './companyApi';

/** The company's name (the owner may rename it), the caller's role and what it allows, and the shop's block. */
export function CompanyNameCard({ company }: { company: Company }) {
  const [rename, { isLoading }] = useRenameCompanyMutation();
  const { message } = App.useApp();

  const submit = async ({ name }: { name: string }) => {
    try {
      await rename(name.trim()).unwrap();
      void message.success('Название компании изменено');
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось переименовать компанию');
    }
  };

  return (
    <Card title={company.name} size="small" className="company-card">
      <Flex vertical gap="middle">
        <Typography.Text>
          Ваша роль: <Typography.Text strong>{COMPANY_ROLE_LABELS[company.role]}</Typography.Text> —{' '}
          {COMPANY_ROLE_DESCRIPTIONS[company.role]}.
        </Typography.Text>
        {company.blocked && <Alert type="warning" showIcon title={COMPANY_MESSAGES.companyBlocked} />}
        {mayManageMembers(company.role) && (
          // Keyed by the name: a rename elsewhere (another tab, the shop) shows here when it is reloaded.
          <Form
            key={company.name}
            name="company-rename"
            layout="vertical"
            requiredMark={false}
            initialValues={{ name: company.name }}
            onFinish={submit}
          >
            {/* «Название», not «Название компании»: the requisites' form below names a legal entity so. */}
            <Form.Item
              label="Название"
              name="name"
              rules={[{ required: true, whitespace: true, message: 'Укажите название компании' }]}
            >
              <Input autoComplete="organization" maxLength={LIMITS.companyNameMax} />
            </Form.Item>
            <Button htmlType="submit" loading={isLoading}>
              Переименовать
            </Button>
          </Form>
        )}
      </Flex>
    </Card>
  );
}
