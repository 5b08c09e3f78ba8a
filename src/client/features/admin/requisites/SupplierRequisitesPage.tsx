import { Alert, Button, Form, Input, InputNumber, Select, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import type { SupplierRequisites, VAT_RATES } from '@shared/schemas/settings';
import {
  accountProblem,
  bikProblem,
  corrAccountProblem,
  innProblem,
  kppProblem,
  ogrnProblem,
  supplierRequisitesProblem,
} from '@shared/requisites';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { useGetSupplierRequisitesQuery, useSaveSupplierRequisitesMutation } from '../adminApi';

type VatRate = (typeof VAT_RATES)[number];

// The Select's value for «Без НДС» (null in the API): a Select option cannot carry null.
const WITHOUT_VAT = 'none';

// Every rate the API takes, checked against its type (VAT_RATES is not imported: it would bring TypeBox into the chunk).
const VAT_LABELS: Record<VatRate, string> = { 0: '0 %', 5: '5 %', 7: '7 %', 10: '10 %', 20: '20 %', 22: '22 %' };
const VAT_OPTIONS = [
  { value: WITHOUT_VAT, label: 'Без НДС' },
  ...Object.entries(VAT_LABELS).map(([rate, label]) => ({ value: rate, label })),
];

/** The form's values: text as typed, the VAT rate as the Select's string. */
type FormValues = Omit<SupplierRequisites, 'kpp' | 'vat_rate'> & { kpp?: string | null; vat_rate: string };

const DEFAULT_PAYMENT_DAYS = 5;

function toForm(saved: SupplierRequisites | null | undefined): Partial<FormValues> {
  if (!saved) return { vat_rate: WITHOUT_VAT, payment_days: DEFAULT_PAYMENT_DAYS };
  return { ...saved, vat_rate: saved.vat_rate === null ? WITHOUT_VAT : String(saved.vat_rate) };
}

function fromForm(values: FormValues): SupplierRequisites {
  const text = (value: string | null | undefined) => (value ?? '').trim();
  return {
    name: text(values.name),
    inn: text(values.inn),
    kpp: text(values.kpp) || null,
    ogrn: text(values.ogrn),
    address: text(values.address),
    bank_name: text(values.bank_name),
    bik: text(values.bik),
    account: text(values.account),
    corr_account: text(values.corr_account),
    vat_rate: values.vat_rate === WITHOUT_VAT ? null : (Number(values.vat_rate) as VatRate),
    payment_days: values.payment_days,
  };
}

const required = (what: string): Rule => ({ required: true, whitespace: true, message: `Укажите ${what}` });

/** A rule from one of the shared checks (src/shared/requisites.ts): its message, or nothing when it holds. */
const checked =
  (problem: (value: string, values: FormValues) => string | null): Rule =>
  ({ getFieldsValue }) => ({
    validator: (_rule, value: string | null | undefined) => {
      const given = (value ?? '').trim();
      const message = given ? problem(given, getFieldsValue(true) as FormValues) : null;
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });

const innOf = (values: FormValues) => (values.inn ?? '').trim() || null;
const bikOf = (values: FormValues) => (values.bik ?? '').trim();

/** Реквизиты: the supplier's details printed on every invoice (GET/PUT /api/v1/admin/settings/requisites). */
export function SupplierRequisitesPage() {
  const { data: saved, isLoading, isError, refetch } = useGetSupplierRequisitesQuery();
  const [save, { isLoading: saving }] = useSaveSupplierRequisitesMutation();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; title: string; detail?: string } | null>(null);
  const [form] = Form.useForm<FormValues>();
  const inn = Form.useWatch('inn', form) ?? '';
  const organisation = inn.trim().length === 10;

  if (isLoading) return <PageLoading />;
  // No form over details that could not be read: saving it would replace them unseen.
  if (isError) {
    return (
      <>
        <PageTitle name="Реквизиты поставщика" />
        <Typography.Title>Реквизиты поставщика</Typography.Title>
        <Alert
          type="error"
          showIcon
          title="Не удалось загрузить реквизиты"
          action={<Button onClick={() => void refetch()}>Повторить</Button>}
        />
      </>
    );
  }

  const submit = async (values: FormValues) => {
    const body = fromForm(values);
    // The fields' rules have passed; this catches what only the whole set shows (an ИП's КПП).
    const problem = supplierRequisitesProblem(body);
    if (problem) {
      setOutcome({ type: 'error', title: 'Реквизиты не сохранены', detail: problem });
      return;
    }
    try {
      await save(body).unwrap();
      setOutcome({ type: 'success', title: 'Реквизиты сохранены' });
    } catch (failure) {
      setOutcome({ type: 'error', title: 'Реквизиты не сохранены', detail: serverErrorDetail(failure) });
    }
  };

  return (
    <>
      <PageTitle name="Реквизиты поставщика" />
      <div className="admin-page-head">
        <Typography.Title>Реквизиты поставщика</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">
        Они печатаются в каждом счёте. Пока реквизиты не заполнены, счёт выставить нельзя.
      </Typography.Paragraph>
      <Form<FormValues>
        form={form}
        layout="vertical"
        className="admin-form"
        initialValues={toForm(saved)}
        onFinish={submit}
        onValuesChange={() => setOutcome(null)}
      >
        <Form.Item name="name" label="Наименование" rules={[required('наименование')]}>
          <Input maxLength={200} autoComplete="organization" />
        </Form.Item>
        <Form.Item name="inn" label="ИНН" rules={[required('ИНН'), checked((value) => innProblem(value))]}>
          <Input inputMode="numeric" maxLength={12} />
        </Form.Item>
        <Form.Item
          name="kpp"
          label="КПП"
          dependencies={['inn']}
          extra="Только у организации; у ИП не указывается."
          rules={[
            ...(organisation ? [required('КПП')] : []),
            checked((value, values) => kppProblem(value, innOf(values))),
          ]}
        >
          <Input maxLength={9} />
        </Form.Item>
        <Form.Item
          name="ogrn"
          label="ОГРН или ОГРНИП"
          dependencies={['inn']}
          rules={[required('ОГРН'), checked((value, values) => ogrnProblem(value, innOf(values)))]}
        >
          <Input inputMode="numeric" maxLength={15} />
        </Form.Item>
        <Form.Item name="address" label="Адрес" rules={[required('адрес')]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} />
        </Form.Item>
        <Form.Item name="bank_name" label="Банк" rules={[required('банк')]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="bik" label="БИК" rules={[required('БИК'), checked((value) => bikProblem(value))]}>
          <Input inputMode="numeric" maxLength={9} />
        </Form.Item>
        <Form.Item
          name="account"
          label="Расчётный счёт"
          dependencies={['bik']}
          rules={[required('расчётный счёт'), checked((value, values) => accountProblem(value, bikOf(values)))]}
        >
          <Input inputMode="numeric" maxLength={20} />
        </Form.Item>
        <Form.Item
          name="corr_account"
          label="Корреспондентский счёт"
          dependencies={['bik']}
          rules={[
            required('корреспондентский счёт'),
            checked((value, values) => corrAccountProblem(value, bikOf(values))),
          ]}
        >
          <Input inputMode="numeric" maxLength={20} />
        </Form.Item>
        <Form.Item name="vat_rate" label="Ставка НДС">
          <Select options={VAT_OPTIONS} />
        </Form.Item>
        <Form.Item
          name="payment_days"
          label="Срок оплаты счёта, дней"
          rules={[{ required: true, message: 'Укажите срок оплаты' }]}
        >
          <InputNumber min={1} max={365} precision={0} />
        </Form.Item>
        {outcome && (
          <Alert
            type={outcome.type}
            showIcon
            title={outcome.title}
            description={outcome.detail}
            style={{ marginBottom: 16 }}
          />
        )}
        <Button type="primary" htmlType="submit" loading={saving}>
          Сохранить реквизиты
        </Button>
      </Form>
    </>
  );
}
