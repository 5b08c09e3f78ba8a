import { Alert, App, Flex, Input, Modal, Table, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import type { AdminCompany, AdminCompanyList } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { emptyTable } from '../tableEmpty';
import { useGetAdminCompaniesQuery, useMergeCompaniesMutation } from './companiesAdminApi';

type Candidate = AdminCompanyList['items'][number];

/** Enough to find the one company meant; a wider search is narrowed by typing more. */
const CANDIDATES_SHOWN = 10;

const CANDIDATE_COLUMNS: TableProps<Candidate>['columns'] = [
  { title: 'Компания', dataIndex: 'name' },
  { title: 'ИНН', dataIndex: 'inns', render: (inns: string[]) => (inns.length ? inns.join(', ') : '—') },
  { title: 'Владелец', dataIndex: 'owner_email', render: (email: string | null) => email ?? '—' },
  { title: 'Заказов', dataIndex: 'orders_count', align: 'right' },
];

/**
 * «Объединить с другой компанией»: the manager finds the company to merge into this one and confirms.
 * Its employees, legal entities, addresses and orders move here and it is dissolved, which cannot
 * be undone. Mounted afresh for each opening.
 */
export function CompanyMergeDialog({ company, onClose }: { company: AdminCompany; onClose(): void }) {
  const { message } = App.useApp();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Candidate | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { data, isFetching, isError } = useGetAdminCompaniesQuery(
    { q: query, limit: CANDIDATES_SHOWN },
    { skip: !query },
  );
  const [merge, { isLoading: merging }] = useMergeCompaniesMutation();
  // A company cannot be merged into itself.
  const candidates = data?.items.filter(({ id }) => id !== company.id);

  const search = (text: string) => {
    setQuery(text.trim());
    setChosen(null);
    setFailure(null);
  };

  const confirm = async () => {
    if (!chosen) return;
    setFailure(null);
    try {
      await merge({ id: company.id, fromId: chosen.id }).unwrap();
      void message.success(`Компания «${chosen.name}» объединена с «${company.name}»`);
      onClose();
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось объединить компании');
    }
  };

  return (
    <Modal
      open
      title="Объединить с другой компанией"
      okText="Объединить"
      cancelText="Отмена"
      okButtonProps={{ danger: true, disabled: !chosen }}
      confirmLoading={merging}
      onOk={confirm}
      onCancel={onClose}
      width={720}
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph>
          Найдите компанию, которую нужно присоединить к «{company.name}». Её сотрудники, юрлица, адреса и заказы
          перейдут сюда, а сама она будет упразднена.
        </Typography.Paragraph>
        <div className="admin-filter">
          <label htmlFor="merge-q">Название, ИНН или e-mail сотрудника</label>
          <Input.Search id="merge-q" onSearch={search} enterButton="Найти" maxLength={200} />
        </div>
        {isError && (
          <Typography.Text type="danger" role="alert">
            Не удалось найти компании. Попробуйте ещё раз.
          </Typography.Text>
        )}
        {query && (
          <Table<Candidate>
            rowKey="id"
            size="small"
            columns={CANDIDATE_COLUMNS}
            dataSource={candidates}
            loading={isFetching}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={emptyTable('Других компаний не найдено')}
            rowSelection={{
              type: 'radio',
              columnTitle: <span className="admin-visually-hidden">Выбрать</span>,
              selectedRowKeys: chosen ? [chosen.id] : [],
              getCheckboxProps: (row) => ({ 'aria-label': row.name }),
              onChange: (_keys, rows) => setChosen(rows[0] ?? null),
            }}
            onRow={(row) => ({ onClick: () => setChosen(row), className: 'admin-clickable-row' })}
          />
        )}
        {chosen && (
          <Alert
            type="warning"
            showIcon
            title={`Компания «${chosen.name}» будет упразднена`}
            description={`Её сотрудники, юрлица, адреса и заказы перейдут в «${company.name}». Отменить объединение нельзя.`}
          />
        )}
        {failure && <Alert type="error" showIcon title={failure} />}
      </Flex>
    </Modal>
  );
}
