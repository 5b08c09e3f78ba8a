import { Button, Input, Table, Typography, type TableProps } from 'antd';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { AdminCompanyList } from '@shared/api';
import { listPageIndex } from '@shared/paths';
import { PageTitle } from '@/components/PageTitle';
import { adminCompanyPath } from '../adminPaths';
import { serverPagination } from '../serverPagination';
import { MineSwitch } from '../MineSwitch';
import { emptyTable } from '../tableEmpty';
import { useGetAdminCompaniesQuery } from './companiesAdminApi';
import { CompanyTags } from './CompanyTags';

type Row = AdminCompanyList['items'][number];

/** Where the company page's «К компаниям» returns: this list with its search and page. */
export interface FromCompanies {
  list: string;
}

const PAGE_COMPANIES = 20;

/** What the list shows, all of it in the address: a reload or a shared link shows the same. */
interface CompaniesView {
  q: string;
  mine: boolean;
  /** Zero-based. */
  page: number;
}

function readView(params: URLSearchParams): CompaniesView {
  return {
    q: params.get('q')?.trim() ?? '',
    mine: params.get('mine') === 'true',
    page: listPageIndex(params.get('page'), PAGE_COMPANIES),
  };
}

/** The address of a view, naming only what differs from the default. */
function viewParams({ q, mine, page }: CompaniesView): URLSearchParams {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (mine) params.set('mine', 'true');
  if (page) params.set('page', String(page + 1));
  return params;
}

/** Компании: the buyers' companies, a page at a time from the server, searched as the address says. */
export function CompaniesPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { search } = useLocation();
  const view = readView(params);
  const { data, isFetching, isError } = useGetAdminCompaniesQuery({
    q: view.q || undefined,
    mine: view.mine || undefined,
    skip: view.page * PAGE_COMPANIES,
    limit: PAGE_COMPANIES,
  });

  /** A new view; a new search or switch starts again from the first page. */
  const show = (change: Partial<CompaniesView>) => setParams(viewParams({ ...view, page: 0, ...change }));
  const from = { list: search } satisfies FromCompanies;

  const columns: TableProps<Row>['columns'] = [
    {
      title: 'Компания',
      dataIndex: 'name',
      render: (name: string, row) => (
        // A link for the keyboard and a new tab; a click anywhere on the row opens the company too.
        <Link to={adminCompanyPath(row.id)} state={from} onClick={(event) => event.stopPropagation()}>
          {name}
        </Link>
      ),
    },
    {
      title: 'ИНН',
      dataIndex: 'inns',
      render: (inns: string[]) => (inns.length ? inns.map((inn) => <div key={inn}>{inn}</div>) : '—'),
    },
    { title: 'Владелец', dataIndex: 'owner_email', render: (email: string | null) => email ?? '—' },
    { title: 'Сотрудников', dataIndex: 'members_count', align: 'right' },
    { title: 'Заказов', dataIndex: 'orders_count', align: 'right' },
    { title: 'Менеджер', dataIndex: 'manager', render: (manager: Row['manager']) => manager?.name ?? 'Не назначен' },
    { title: 'Тип цен', dataIndex: 'price_type', render: (type: string | null) => type ?? 'По умолчанию' },
    { title: 'Отметки', key: 'tags', render: (_value, row) => <CompanyTags company={row} /> },
  ];

  return (
    <>
      <PageTitle name="Компании" listPage={view.page} />
      <div className="admin-page-head">
        <Typography.Title>Компании</Typography.Title>
      </div>
      <div role="search" className="admin-filters" aria-label="Отбор компаний">
        <div className="admin-filter admin-filter-search">
          <label htmlFor="companies-q">Название, ИНН или e-mail сотрудника</label>
          <Input.Search
            // Typed text is the box's own until submitted; a new address (Back, «Сбросить») shows its q.
            key={view.q}
            id="companies-q"
            defaultValue={view.q}
            onSearch={(q) => show({ q: q.trim() })}
            enterButton="Найти"
            maxLength={200}
          />
        </div>
        <MineSwitch id="companies-mine" checked={view.mine} onChange={(mine) => show({ mine })} />
        <Button onClick={() => setParams(new URLSearchParams())}>Сбросить</Button>
      </div>
      {isError && (
        <Typography.Paragraph type="danger" role="alert">
          Не удалось загрузить компании. Попробуйте обновить страницу.
        </Typography.Paragraph>
      )}
      <Table<Row>
        rowKey="id"
        columns={columns}
        dataSource={data?.items}
        loading={isFetching}
        scroll={{ x: 'max-content' }}
        locale={emptyTable(view.q ? 'Ничего не найдено' : 'Компаний нет')}
        onRow={(row) => ({
          onClick: () => navigate(adminCompanyPath(row.id), { state: from }),
          className: 'admin-clickable-row',
        })}
        pagination={{
          ...serverPagination(view.page + 1, PAGE_COMPANIES, data?.total),
          onChange: (next) => show({ page: next - 1 }),
        }}
      />
    </>
  );
}
