import { EditOutlined } from '@ant-design/icons';
import { Button, Form, Input, Table, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import type { StaffProfile, StaffProfileFields } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { PageTitle } from '@/components/PageTitle';
import { EditDialog } from '../catalogue/EditDialog';
import { useGetStaffQuery, useUpdateStaffProfileMutation } from '../companies/companiesAdminApi';
import { emptyTable } from '../tableEmpty';

/** The schema's cap on a messenger link (StaffProfileBody). */
const MESSENGER_URL_MAX = 500;

type ContactField = 'contact_email' | 'phone' | 'messenger_url';

interface StaffForm {
  name: string;
  contact_email?: string | null;
  phone?: string | null;
  messenger_url?: string | null;
}

/** Only what the dialog changed (an emptied contact is null); nothing when nothing did. */
function profileChanges(profile: StaffProfile, values: StaffForm): StaffProfileFields {
  const changes: StaffProfileFields = {};
  const name = values.name.trim();
  if (name !== profile.name) changes.name = name;
  for (const field of ['contact_email', 'phone', 'messenger_url'] satisfies ContactField[]) {
    const value = values[field]?.trim() || null;
    if (value !== profile[field]) changes[field] = value;
  }
  return changes;
}

// Mounted afresh for each opening, so its form starts from the profile being changed.
function StaffDialog({ profile, onClose }: { profile: StaffProfile; onClose(): void }) {
  const [update, { isLoading }] = useUpdateStaffProfileMutation();

  const save = async (values: StaffForm) => {
    const patch = profileChanges(profile, values);
    if (!Object.keys(patch).length) return null;
    await update({ id: profile.id, patch }).unwrap();
    return 'Профиль менеджера сохранён';
  };

  return (
    <EditDialog<StaffForm>
      title={`Менеджер ${profile.email}`}
      initialValues={profile}
      saving={isLoading}
      save={save}
      failureText="Не удалось сохранить профиль"
      onClose={onClose}
    >
      <Form.Item
        label="Имя для покупателей"
        name="name"
        rules={[
          { required: true, whitespace: true, message: 'Укажите имя' },
          { max: LIMITS.nameMax, message: `Не длиннее ${LIMITS.nameMax} символов` },
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="E-mail для связи"
        name="contact_email"
        rules={[
          { type: 'email', message: 'Введите e-mail, например anna@example.ru' },
          { max: LIMITS.emailMax, message: `Не длиннее ${LIMITS.emailMax} символов` },
        ]}
      >
        <Input type="email" autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Телефон"
        name="phone"
        rules={[{ max: LIMITS.phoneMax, message: `Не длиннее ${LIMITS.phoneMax} символов` }]}
      >
        <Input type="tel" autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Ссылка на мессенджер"
        name="messenger_url"
        extra="Telegram, WhatsApp или MAX, например https://t.me/anna_opt"
        rules={[
          { type: 'url', message: 'Введите ссылку целиком, начиная с https://' },
          { max: MESSENGER_URL_MAX, message: `Не длиннее ${MESSENGER_URL_MAX} символов` },
        ]}
      >
        <Input type="url" autoComplete="off" />
      </Form.Item>
    </EditDialog>
  );
}

const orDash = (text: string | null) => text ?? '—';

/** Менеджеры: the shop's staff as the buyers see them, each edited in a dialog. */
export function StaffPage() {
  const { data, isFetching, isError } = useGetStaffQuery();
  const [editing, setEditing] = useState<StaffProfile | null>(null);

  const columns: TableProps<StaffProfile>['columns'] = [
    { title: 'Имя', dataIndex: 'name' },
    { title: 'Адрес входа', dataIndex: 'email' },
    { title: 'E-mail для связи', dataIndex: 'contact_email', render: orDash },
    { title: 'Телефон', dataIndex: 'phone', render: orDash },
    {
      title: 'Мессенджер',
      dataIndex: 'messenger_url',
      render: (url: string | null) =>
        url ? (
          <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
            {url}
          </Typography.Link>
        ) : (
          '—'
        ),
    },
    { title: 'Компаний', dataIndex: 'companies_count', align: 'right' },
    {
      title: <span className="admin-visually-hidden">Действия</span>,
      key: 'edit',
      render: (_value, profile) => (
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={`Изменить профиль ${profile.name}`}
          onClick={() => setEditing(profile)}
        />
      ),
    },
  ];

  return (
    <>
      <PageTitle name="Менеджеры" />
      <div className="admin-page-head">
        <Typography.Title>Менеджеры</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">
        Имя, e-mail, телефон и мессенджер менеджера видят сотрудники компаний, которые он ведёт: в профиле и в письмах.
      </Typography.Paragraph>
      {isError && (
        <Typography.Paragraph type="danger" role="alert">
          Не удалось загрузить менеджеров. Попробуйте обновить страницу.
        </Typography.Paragraph>
      )}
      <Table<StaffProfile>
        rowKey="id"
        columns={columns}
        dataSource={data}
        loading={isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Менеджеров нет')}
      />
      {editing && <StaffDialog profile={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
