import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { imageUrl, type AdminProduct } from '@shared/api';
import { formatRubles } from '@shared/money';
import { listPageIndex } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { PageTitle } from '@/components/PageTitle';
import { adminPath, adminProductPath } from '../adminPaths';
import { useGetAdminCategoriesQuery, useGetAdminProductsQuery } from './catalogueAdminApi';
import './catalogueAdmin.css';
import { serverPagination } from '../serverPagination';
import { emptyTable } from '../tableEmpty';

const PAGE_SIZE = 20;

/** «990,00 ₽», or «450,00 ₽ – 990,00 ₽» when the variants' prices differ. */
function priceRange({ variants }: AdminProduct): string {
  if (!variants.length) return '—';
  const prices = variants.map(({ price }) => price);
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  return low === high ? formatRubles(low) : `${formatRubles(low)} – ${formatRubles(high)}`;
}

const columns: TableColumnsType<AdminProduct> = [
  {
    title: 'Фото',
    dataIndex: 'image',
    width: 72,
    // The name beside it says what it shows.
    render: (image: string) => (
      <img
        className="catalogue-admin-thumbnail"
        src={imageUrl(API_HOST, image)}
        alt=""
        width={48}
        height={48}
        loading="lazy"
      />
    ),
  },
  { title: 'Артикул', dataIndex: 'art' },
  {
    title: 'Название',
    dataIndex: 'name',
    render: (name: string, product) => (
      <Flex gap="small" wrap align="center">
        <Link to={adminProductPath(product.id)} onClick={(event) => event.stopPropagation()}>
          {name}
        </Link>
        {product.hidden && <Tag>Скрыт</Tag>}
        {product.popular && <Tag color="magenta">Популярный</Tag>}
      </Flex>
    ),
  },
  { title: 'Категория', dataIndex: 'category' },
  { title: 'Цена', key: 'price', align: 'right', render: (_value, product) => priceRange(product) },
  {
    title: 'Остаток, шт.',
    key: 'stock',
    align: 'right',
    render: (_value, { variants }) => variants.reduce((sum, { stock }) => sum + stock, 0),
  },
];

/**
 * Товары: the whole catalogue, hidden products too, a page at a time from the server; the search,
 * the category and the page live in the address, so a reload or Back keeps them.
 */
export default function ProductsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? undefined;
  const page = listPageIndex(params.get('page'), PAGE_SIZE);
  const { data, isFetching, isError } = useGetAdminProductsQuery({
    q: q || undefined,
    category,
    skip: page * PAGE_SIZE,
    limit: PAGE_SIZE,
  });
  const { data: categories } = useGetAdminCategoriesQuery();

  /** A new search or category starts from the first page. */
  const show = (changes: Record<string, string | undefined>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      if (!('page' in changes)) next.delete('page');
      return next;
    });

  return (
    <>
      <PageTitle name="Товары" listPage={page} />
      <div className="admin-page-head">
        <Typography.Title>Товары</Typography.Title>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate(adminPath('productNew'))}>
          Добавить товар
        </Button>
      </div>
      <div role="search" className="admin-filters" aria-label="Отбор товаров">
        <div className="admin-filter admin-filter-search">
          <label htmlFor="products-q">Артикул или название</label>
          <Input.Search
            // Typed text is the box's own until submitted; a new address (Back) shows its q.
            key={q}
            id="products-q"
            defaultValue={q}
            allowClear
            enterButton="Найти"
            maxLength={200}
            onSearch={(value) => show({ q: value.trim() || undefined })}
          />
        </div>
        <div className="admin-filter">
          <label htmlFor="products-category">Категория</label>
          <Select
            id="products-category"
            allowClear
            placeholder="Все категории"
            style={{ minWidth: 220 }}
            value={category}
            options={categories?.map(({ name }) => ({ value: name, label: name }))}
            onChange={(value?: string) => show({ category: value })}
          />
        </div>
      </div>
      {isError && <Alert type="error" showIcon title="Не удалось загрузить товары" />}
      <Table
        rowKey="id"
        columns={columns}
        dataSource={data?.items}
        loading={isFetching}
        locale={emptyTable('Товаров не найдено')}
        scroll={{ x: 'max-content' }}
        onRow={(product) => ({
          onClick: () => navigate(adminProductPath(product.id)),
          className: 'admin-clickable-row',
        })}
        pagination={{
          ...serverPagination(page + 1, PAGE_SIZE, data?.total),
          onChange: (next) => show({ page: next > 1 ? String(next) : undefined }),
        }}
      />
    </>
  );
}
