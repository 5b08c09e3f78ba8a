import { Alert, Button, Card, Form, Typography } from 'antd';
import { useState } from 'react';
import type { RequisitesFields } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { useGetCompanyQuery } from '@/features/company/companyApi';
import { useCompanyStanding } from '@/features/company/companyStanding';
import { useGetRequisitesQuery, useSaveRequisitesMutation } from './requisitesApi';
import { ContactFields, RequisiteFields } from './RequisiteFields';
import { requisitesOf } from './requisitesValues';

type Outcome = { type: 'success'; title: string } | { type: 'error'; title: string; detail?: string };

/**
 * The profile's company and contact details, which prefill every checkout. A company with legal
 * entities keeps their details in «Компания» (with their own rules and roles): here, only the
 * employee's own name and phone.
 */
export function RequisitesForm({ userId }: { userId: number }) {
  const { data: saved, isLoading } = useGetRequisitesQuery(userId);
  const standing = useCompanyStanding();
  const company = useGetCompanyQuery(undefined, { skip: !standing.company });
  const [save, { isLoading: saving }] = useSaveRequisitesMutation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The form opens knowing which fields it has: it waits for the company's legal entities.
  if (isLoading || !standing.known || company.isLoading) return <PageLoading />;
  const contactOnly = (company.data?.legal_entities.length ?? 0) > 0;

  const submit = async (values: RequisitesFields) => {
    const details = requisitesOf(values);
    const fields = contactOnly ? { contact_name: details.contact_name, contact_phone: details.contact_phone } : details;
    try {
      await save({ userId, ...fields }).unwrap();
      setOutcome({ type: 'success', title: 'Реквизиты сохранены' });
    } catch (failure) {
      setOutcome({ type: 'error', title: 'Не удалось сохранить реквизиты', detail: serverErrorDetail(failure) });
    }
  };

  return (
    <Card title="Реквизиты" size="small" className="requisites-card">
      <Form
        layout="vertical"
        initialValues={saved ?? {}}
        onFinish={submit}
        onValuesChange={() => setOutcome(null)}
        // Every field here may stay empty: no field is marked.
        requiredMark={false}
      >
        {contactOnly ? (
          <>
            <ContactFields />
            <Typography.Paragraph type="secondary">
              Юрлица компании и их реквизиты — в разделе «Компания».
            </Typography.Paragraph>
          </>
        ) : (
          <RequisiteFields />
        )}
        {outcome && (
          <Alert
            type={outcome.type}
            showIcon
            title={outcome.title}
            description={'detail' in outcome ? outcome.detail : undefined}
            style={{ marginBottom: 16 }}
          />
        )}
        <Button type="primary" htmlType="submit" loading={saving}>
          Сохранить реквизиты
        </Button>
      </Form>
    </Card>
  );
}
