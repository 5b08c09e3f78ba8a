import { Alert, Button, Card, Form } from 'antd';
import { useState } from 'react';
import type { RequisitesFields } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { useGetRequisitesQuery, useSaveRequisitesMutation } from './requisitesApi';
import { RequisiteFields } from './RequisiteFields';
import { requisitesOf } from './requisitesValues';

type Outcome = { type: 'success'; title: string } | { type: 'error'; title: string; detail?: string };

/** The profile's company and contact details, which prefill every checkout. */
export function RequisitesForm({ userId }: { userId: number }) {
  const { data: saved, isLoading } = useGetRequisitesQuery(userId);
  const [save, { isLoading: saving }] = useSaveRequisitesMutation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  if (isLoading) return <PageLoading />;

  const submit = async (values: RequisitesFields) => {
    try {
      await save({ userId, ...requisitesOf(values) }).unwrap();
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
        <RequisiteFields />
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
