import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Flex, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import type { ExchangeRun } from '@shared/api';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { daysCount } from '@/components/format';
import { serverPagination } from '../serverPagination';
import { emptyTable } from '../tableEmpty';
import { useCreateDownloadLinkMutation } from '@/api/downloadLinksApi';
import { downloadNatively } from '@/components/downloadNatively';
import { exchangeFilePath, useGetExchangeRunsQuery } from './exchangeAdminApi';
import { formatFileSize } from './fileSize';

type RunFile = ExchangeRun['files'][number];

const PAGE_RUNS = 20;

const KIND_LABELS: Record<ExchangeRun['kind'], string> = { catalog: 'Каталог', sale: 'Заказы' };

const STATUS_TAGS: Record<ExchangeRun['status'], { label: string; color: string }> = {
  receiving: { label: 'Получение файлов', color: 'processing' },
  importing: { label: 'Загрузка', color: 'processing' },
  done: { label: 'Готово', color: 'success' },
  failed: { label: 'Ошибка', color: 'error' },
};

/** A file's stage as the exchange moves it (an unknown one, from a newer server, as it is). */
const FILE_STAGES: Record<string, string> = {
  received: 'получен',
  staging: 'читается',
  staged: 'прочитан',
  applying: 'загружается',
  applied: 'загружен',
  failed: 'ошибка',
};

type Counter = Extract<keyof ExchangeRun, `${string}_${'created' | 'updated' | 'hidden' | 'linked' | 'set' | 'sent'}`>;

/** What an exchange did, in the order the catalogue is loaded; a counter at 0 is left out. */
const COUNTERS: [Counter, string][] = [
  ['categories_created', 'новых категорий'],
  ['categories_updated', 'изменено категорий'],
  ['products_created', 'новых товаров'],
  ['products_updated', 'изменено товаров'],
  ['products_hidden', 'скрыто товаров'],
  ['variants_created', 'новых вариантов'],
  ['variants_updated', 'изменено вариантов'],
  ['variants_linked', 'связано вариантов'],
  ['prices_set', 'цен'],
  ['orders_sent', 'отправлено заказов'],
  ['orders_updated', 'обновлено заказов'],
];

function runSummary(run: ExchangeRun): string {
  const parts = COUNTERS.filter(([counter]) => run[counter] > 0).map(([counter, label]) => `${label}: ${run[counter]}`);
  if (run.products_linked_by_article.length > 0)
    parts.push(`связано по артикулу: ${run.products_linked_by_article.length}`);
  if (run.errors_count > 0) parts.push(`ошибок в строках: ${run.errors_count}`);
  const summary = parts.join(', ');
  return summary ? summary[0]!.toUpperCase() + summary.slice(1) : '—';
}

function RunStatus({ run }: { run: ExchangeRun }) {
  const { label, color } = STATUS_TAGS[run.status];
  return (
    <Flex vertical gap={4} align="start">
      <Tag color={color}>{label}</Tag>
      {run.failure && <Typography.Text type="danger">{run.failure}</Typography.Text>}
    </Flex>
  );
}

const COLUMNS: TableProps<ExchangeRun>['columns'] = [
  { title: 'Когда', dataIndex: 'started_at', render: formatMoscowDateTimeNumeric },
  { title: 'Обмен', dataIndex: 'kind', render: (kind: ExchangeRun['kind']) => KIND_LABELS[kind] },
  { title: 'Состояние', key: 'status', render: (_value, run) => <RunStatus run={run} /> },
  { title: 'Кто', dataIndex: 'by_email', render: (email: string | null) => email ?? '—' },
  { title: 'Итог', key: 'summary', render: (_value, run) => runSummary(run) },
];

/** A run's files, each downloadable while the server keeps them. */
function RunFiles({ run, filesKeepDays }: { run: ExchangeRun; filesKeepDays: number }) {
  const { message } = App.useApp();
  // By a signed link the browser follows itself: an offers.xml of a gigabyte never sits in the tab.
  const [createLink, { isLoading, originalArgs }] = useCreateDownloadLinkMutation();
  const save = async (name: string) => {
    try {
      downloadNatively((await createLink(exchangeFilePath(run.id, name)).unwrap()).url);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? `Не удалось скачать ${name}`);
    }
  };
  const columns: TableProps<RunFile>['columns'] = [
    {
      title: 'Файл',
      dataIndex: 'name',
      render: (name: string) =>
        run.files_kept ? (
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined aria-hidden />}
            loading={isLoading && originalArgs === exchangeFilePath(run.id, name)}
            onClick={() => void save(name)}
          >
            {name}
          </Button>
        ) : (
          name
        ),
    },
    { title: 'Размер', dataIndex: 'bytes', align: 'right', render: formatFileSize },
    {
      title: 'Состояние',
      key: 'stage',
      render: (_value, file) => (
        <>
          {FILE_STAGES[file.stage] ?? file.stage}
          {file.failure && <Typography.Text type="danger">: {file.failure}</Typography.Text>}
        </>
      ),
    },
  ];
  return (
    <div>
      <Typography.Text strong>Файлы</Typography.Text>
      {!run.files_kept && run.files.length > 0 && (
        <Typography.Paragraph type="secondary">
          Файлы уже удалены: они хранятся {daysCount(filesKeepDays)}.
        </Typography.Paragraph>
      )}
      <Table<RunFile>
        rowKey="name"
        size="small"
        columns={columns}
        dataSource={run.files}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Файлов не было')}
      />
    </div>
  );
}

/** A list under its title, or nothing when it is empty; `more` of them not listed are counted after it. */
function RunList({ title, lines, more = 0 }: { title: string; lines: string[]; more?: number }) {
  if (lines.length === 0) return null;
  return (
    <div>
      <Typography.Text strong>{title}</Typography.Text>
      <ul>
        {lines.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
        {more > 0 && <li>и ещё {more}</li>}
      </ul>
    </div>
  );
}

function RunDetails({ run, filesKeepDays }: { run: ExchangeRun; filesKeepDays: number }) {
  return (
    <Flex vertical gap={12}>
      <RunFiles run={run} filesKeepDays={filesKeepDays} />
      <RunList title="Связаны по артикулу (артикул → Ид 1С)" lines={run.products_linked_by_article} />
      <RunList title="Ошибки в строках" lines={run.errors} more={run.errors_count - run.errors.length} />
    </Flex>
  );
}

/** «Обмены»: the exchanges 1С made, newest first, a page at a time; a row opens onto its files and errors. */
export function ExchangeRuns({ filesKeepDays }: { filesKeepDays: number }) {
  const [page, setPage] = useState(1);
  const { data, isFetching, isError, refetch } = useGetExchangeRunsQuery({
    skip: (page - 1) * PAGE_RUNS,
    limit: PAGE_RUNS,
  });
  return (
    <section className="admin-section" aria-labelledby="exchange-runs">
      <Flex gap={16} align="center" wrap>
        <Typography.Title level={2} id="exchange-runs">
          Обмены
        </Typography.Title>
        <Button icon={<ReloadOutlined aria-hidden />} loading={isFetching} onClick={() => void refetch()}>
          Обновить
        </Button>
      </Flex>
      {isError && (
        <Typography.Paragraph type="danger" role="alert">
          Не удалось загрузить обмены. Попробуйте обновить.
        </Typography.Paragraph>
      )}
      <Table<ExchangeRun>
        rowKey="id"
        columns={COLUMNS}
        dataSource={data?.items}
        loading={isFetching}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Обменов ещё не было')}
        expandable={{
          columnTitle: <span className="admin-visually-hidden">Файлы и ошибки</span>,
          expandedRowRender: (run) => <RunDetails run={run} filesKeepDays={filesKeepDays} />,
        }}
        pagination={{ ...serverPagination(page, PAGE_RUNS, data?.total), onChange: setPage }}
      />
    </section>
  );
}
