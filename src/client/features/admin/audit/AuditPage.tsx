import { Table, Typography, type TableProps } from 'antd';
import { useSearchParams } from 'react-router';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import type { AuditList } from '@shared/api';
import { listPageIndex } from '@shared/paths';
import { PageTitle } from '@/components/PageTitle';
import { useGetAuditQuery } from '../adminApi';
import { actionName, entityName } from './auditWords';
import { serverPagination } from '../serverPagination';
import { emptyTable } from '../tableEmpty';

type Entry = AuditList['items'][number];

const PAGE_ENTRIES = 50;

const COLUMNS: TableProps<Entry>['columns'] = [
  { title: 'Когда', dataIndex: 'at', render: formatMoscowDateTimeNumeric },
  { title: 'Кто', key: 'by', render: (_value, entry) => entry.by?.email ?? 'командная строка' },
  { title: 'Действие', dataIndex: 'action', render: actionName },
  { title: 'Объект', dataIndex: 'entity', render: entityName },
  { title: 'ID', dataIndex: 'entity_id', render: (id: string | null) => id ?? '—' },
];

function Snapshot({ title, value }: { title: string; value: unknown }) {
  return (
    <div>
      <Typography.Text strong>{title}</Typography.Text>
      <pre className="admin-json">{value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

/** Журнал: every change made in the back office, newest first, with what it was before and after. */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const page = listPageIndex(params.get('page'), PAGE_ENTRIES);
  const { data, isFetching, isError } = useGetAuditQuery({ skip: page * PAGE_ENTRIES, limit: PAGE_ENTRIES });
  return (
    <>
      <PageTitle name="Журнал изменений" listPage={page} />
      <div className="admin-page-head">
        <Typography.Title>Журнал изменений</Typography.Title>
      </div>
      {isError && (
        <Typography.Paragraph type="danger" role="alert">
          Не удалось загрузить журнал. Попробуйте обновить страницу.
        </Typography.Paragraph>
      )}
      <Table<Entry>
        rowKey="id"
        columns={COLUMNS}
        dataSource={data?.items}
        loading={isFetching}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Записей нет')}
        expandable={{
          columnTitle: <span className="admin-visually-hidden">До и после</span>,
          expandedRowRender: (entry) => (
            <div className="admin-snapshots">
              <Snapshot title="До" value={entry.before} />
              <Snapshot title="После" value={entry.after} />
            </div>
          ),
        }}
        pagination={{
          ...serverPagination(page + 1, PAGE_ENTRIES, data?.total),
          onChange: (next) => setParams(next === 1 ? {} : { page: String(next) }),
        }}
      />
    </>
  );
}
