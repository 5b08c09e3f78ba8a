import { DownloadOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Table, Tag, theme, Typography, Upload, type TableProps } from 'antd';
import { useState } from 'react';
import type { ImportResult, PreviewChange, PreviewChanges as PreviewChangesPage } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from '@/components/PageTitle';
import { formatRubles } from '@shared/money';
import { EMPTY_CARD_VALUE } from '@shared/product-card';
import { serverPagination } from '../serverPagination';
import { emptyTable } from '../tableEmpty';
import {
  useApplyPriceListPreviewMutation,
  useDownloadPriceListChangesMutation,
  useDownloadPriceListMutation,
  useGetPriceListChangesQuery,
  useImportPriceListMutation,
  type PriceListFormat,
} from './catalogueAdminApi';
import './catalogueAdmin.css';

const FORMATS: { format: PriceListFormat; label: string }[] = [
  { format: 'xlsx', label: 'Скачать XLSX' },
  { format: 'csv', label: 'Скачать CSV' },
];

function PriceListExport() {
  const [download, { isLoading, originalArgs }] = useDownloadPriceListMutation();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Card title="Экспорт" size="small">
      <Flex vertical gap="small">
        <Typography.Paragraph>
          Весь каталог, по строке на вариант: Артикул, Название, Категория, Цвет, Размер, Цена (типа цен по умолчанию),
          по столбцу на каждый другой тип цен — «Цена «Название» [код]», Кратность, Минимум, Остаток.
        </Typography.Paragraph>
        <Flex gap="small" wrap>
          {FORMATS.map(({ format, label }) => (
            <Button
              key={format}
              icon={<DownloadOutlined aria-hidden />}
              loading={isLoading && originalArgs === format}
              onClick={async () => {
                setFailure(null);
                try {
                  await download(format).unwrap();
                } catch (error) {
                  setFailure(serverErrorDetail(error) ?? 'Не удалось скачать прайс-лист');
                }
              }}
            >
              {label}
            </Button>
          ))}
        </Flex>
        {failure && <Alert type="error" showIcon title={failure} />}
      </Flex>
    </Card>
  );
}

/** The counts of a dry run («будет») or of the import itself. */
function ImportCounts({ result }: { result: ImportResult }) {
  const { created, updated, unchanged, new_products: newProducts, dry_run: dryRun } = result;
  const counts = dryRun
    ? `Будет добавлено: ${created}, изменено: ${updated}, без изменений: ${unchanged}.`
    : `Добавлено: ${created}, изменено: ${updated}, без изменений: ${unchanged}.`;
  return (
    <Typography.Paragraph>
      {counts}
      {newProducts > 0 && ` Новых товаров: ${newProducts}.`}
    </Typography.Paragraph>
  );
}

function ImportErrors({ errors }: { errors: ImportResult['errors'] }) {
  return (
    <>
      <Alert
        type="error"
        showIcon
        title={`Ошибок в файле: ${errors.length}. Исправьте их и загрузите файл снова — ничего не изменено.`}
      />
      <Table
        rowKey={(error) => `${error.row}:${error.detail}`}
        size="small"
        dataSource={errors}
        pagination={errors.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        columns={[
          { title: 'Строка', dataIndex: 'row', width: 90, align: 'right' },
          { title: 'Ошибка', dataIndex: 'detail' },
        ]}
      />
    </>
  );
}

const CHANGES_PAGE = 50;

/** «было → стало», or the one value when it stays (or is new). */
function Change<T>({ before, after, show }: { before: T | null; after: T; show(value: T): string }) {
  if (before === null || before === after) return <>{show(after)}</>;
  return (
    <>
      <Typography.Text delete type="secondary">
        {show(before)}
      </Typography.Text>
      {' → '}
      <Typography.Text strong>{show(after)}</Typography.Text>
    </>
  );
}

const sameText = (text: string) => text;

/**
 * A new product, a new variant or a change, in the tags known to pass contrast in both themes (as
 * the order status's: antd's light tints of other colours read below 4.5:1).
 */
function ChangeKind({ change }: { change: PreviewChange }) {
  const { token } = theme.useToken();
  if (change.new_product) return <Tag color="success">новый товар</Tag>;
  if (change.kind === 'created') {
    return (
      <Tag color={token.colorPrimary} variant="solid">
        новый вариант
      </Tag>
    );
  }
  return <Tag>изменение</Tag>;
}

/** A price of another type: none is «нет», its buyers paying the default type's price. */
const typePrice = (price: number | null) => (price === null ? 'нет' : formatRubles(price));

/** The packaging's «было → стало» (a new product has no «было»). */
function PackagingChange({ before, after }: { before: number | null; after: number | null }) {
  return after === null ? null : <Change before={before} after={after} show={String} />;
}

type ChangeColumn = NonNullable<TableProps<PreviewChange>['columns']>[number];

/** The marketplace card's fields a row changes, one a line: «Бренд: было → станет», an empty field «пусто». */
function CardChanges({ changes }: { changes: PreviewChange['card_changes'] }) {
  if (changes.length === 0) return null;
  return (
    // role: a list styled without bullets loses its role in Safari's VoiceOver.
    <ul className="catalogue-admin-card-changes" role="list">
      {changes.map(({ column, old_value: before, value }) => (
        <li key={column}>
          {column}: <Change before={before ?? EMPTY_CARD_VALUE} after={value ?? EMPTY_CARD_VALUE} show={sameText} />
        </li>
      ))}
    </ul>
  );
}

/** Beside «Что»: a change of the card alone would otherwise show as «изменение» with nothing changed in sight. */
const CARD_COLUMN: ChangeColumn = {
  title: 'Карточка: что меняется',
  key: 'card',
  render: (_value, change) => <CardChanges changes={change.card_changes} />,
};

const PACKAGING_COLUMNS: ChangeColumn[] = [
  {
    title: 'Кратность',
    key: 'multiple',
    align: 'right',
    render: (_value, change) => <PackagingChange before={change.old_multiple} after={change.multiple} />,
  },
  {
    title: 'Минимум',
    key: 'min_quantity',
    align: 'right',
    render: (_value, change) => <PackagingChange before={change.old_min_quantity} after={change.min_quantity} />,
  },
];

/** The table's columns: a price type's, the packaging's and the card's only when the checked file had them. */
const changeColumns = ({
  price_types: priceTypes,
  packaging,
  card,
}: Pick<PreviewChangesPage, 'price_types' | 'packaging' | 'card'>): ChangeColumn[] => [
  { title: 'Строка', dataIndex: 'row', width: 80, align: 'right' },
  { title: 'Что', key: 'kind', render: (_value, change) => <ChangeKind change={change} /> },
  ...(card ? [CARD_COLUMN] : []),
  { title: 'Артикул', dataIndex: 'art' },
  {
    title: 'Название',
    key: 'name',
    render: (_value, change) => <Change before={change.old_name} after={change.name} show={sameText} />,
  },
  {
    title: 'Категория',
    key: 'category',
    render: (_value, change) => <Change before={change.old_category} after={change.category} show={sameText} />,
  },
  { title: 'Цвет', dataIndex: 'color' },
  { title: 'Размер', dataIndex: 'size', align: 'right' },
  {
    title: 'Цена',
    key: 'price',
    align: 'right',
    render: (_value, change) => <Change before={change.old_price} after={change.price} show={formatRubles} />,
  },
  ...priceTypes.map(({ code, name }, index): ChangeColumn => ({
    title: `Цена «${name}»`,
    key: `price-${code}`,
    align: 'right',
    render: (_value, change) => {
      const price = change.prices[index];
      if (!price) return null;
      const before = change.kind === 'created' ? null : typePrice(price.old_price);
      return <Change before={before} after={typePrice(price.price)} show={sameText} />;
    },
  })),
  ...(packaging ? PACKAGING_COLUMNS : []),
  {
    title: 'Остаток',
    key: 'stock',
    align: 'right',
    render: (_value, change) => <Change before={change.old_stock} after={change.stock} show={String} />,
  },
];

/** What a checked file will change, a page at a time from the server, and all of it as XLSX. */
function PreviewChanges({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const { data, isFetching, isError } = useGetPriceListChangesQuery({
    id,
    skip: (page - 1) * CHANGES_PAGE,
    limit: CHANGES_PAGE,
  });
  const [download, { isLoading: downloading }] = useDownloadPriceListChangesMutation();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Flex vertical gap="small" className="catalogue-admin-changes">
      <Flex gap="small" align="center" wrap justify="space-between">
        <Typography.Title level={2}>Что изменится</Typography.Title>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          loading={downloading}
          onClick={async () => {
            setFailure(null);
            try {
              await download(id).unwrap();
            } catch (error) {
              setFailure(serverErrorDetail(error) ?? 'Не удалось скачать изменения');
            }
          }}
        >
          Скачать изменения (XLSX)
        </Button>
      </Flex>
      {(failure || isError) && (
        <Alert type="error" showIcon title={failure ?? 'Не удалось загрузить изменения. Проверьте файл снова.'} />
      )}
      <Table<PreviewChange>
        rowKey="row"
        size="small"
        columns={changeColumns(data ?? { price_types: [], packaging: false, card: false })}
        dataSource={data?.items}
        loading={isFetching}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Изменений нет')}
        pagination={{ ...serverPagination(page, CHANGES_PAGE, data?.total), onChange: setPage }}
      />
    </Flex>
  );
}

/**
 * The import: the chosen file is checked first (a dry run changes nothing), its changes are shown
 * row by row, and only a file without errors can be applied — exactly as checked: if the catalogue
 * changed since, the server refuses and the file is checked again.
 */
function PriceListImport() {
  const [check, { isLoading: checking }] = useImportPriceListMutation();
  const [apply, { isLoading: applying }] = useApplyPriceListPreviewMutation();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (chosen: File) => {
    setFailure(null);
    setResult(null);
    try {
      setResult(await check({ file: chosen, dryRun: true }).unwrap());
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось прочитать файл');
    }
  };
  const applyPreview = async (id: string) => {
    setFailure(null);
    try {
      setResult(await apply(id).unwrap());
    } catch (error) {
      // The preview no longer matches the catalogue (or is gone): it cannot be applied any more.
      setResult(null);
      setFailure(serverErrorDetail(error) ?? 'Не удалось применить прайс-лист');
    }
  };

  const checked = result?.dry_run && !result.errors.length ? result : null;
  const applied = result && !result.dry_run ? result : null;

  return (
    <Card title="Импорт" size="small">
      <Flex vertical gap="small" align="start">
        <Typography.Paragraph>
          Файл XLSX или CSV с теми же столбцами, что и в выгрузке. Сначала файл проверяется, и видно, что изменится;
          применить можно только файл без ошибок.
        </Typography.Paragraph>
        <Typography.Paragraph>
          Столбец типа цен узнаётся по коду в квадратных скобках, так что файл годится и после переименования типа.
          Пустая ячейка в нём — своей цены этого типа у варианта не будет: его покупатели платят цену типа по умолчанию.
          Если столбца какого-то типа цен или столбцов «Кратность» и «Минимум» в файле нет, импорт их не меняет.
        </Typography.Paragraph>
        <Typography.Paragraph>
          Данные для маркетплейсов — бренд, материал, наполнитель, возраст, страна производства, ТН ВЭД, штрихкод,
          маркировка, размеры упаковки в сантиметрах и вес в граммах — тоже можно менять файлом; столбец, которого в
          файле нет, не меняется. Новый или изменённый штрихкод должен быть EAN-13 с верной контрольной цифрой. Проверка
          показывает, какие из этих полей изменятся и как.
        </Typography.Paragraph>
        <Flex gap="small" wrap>
          <Upload
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            aria-label="Файл прайс-листа"
            showUploadList={false}
            beforeUpload={(chosen) => {
              setFile(chosen);
              void run(chosen);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined aria-hidden />} loading={checking}>
              Выбрать файл и проверить
            </Button>
          </Upload>
          {file && !checking && (
            <Button icon={<ReloadOutlined aria-hidden />} onClick={() => run(file)}>
              Проверить снова
            </Button>
          )}
        </Flex>
        {file && <Typography.Text>Файл: {file.name}</Typography.Text>}
        {failure && <Alert type="error" showIcon title={failure} />}
        {result && result.errors.length > 0 && <ImportErrors errors={result.errors} />}
        {checked && <Alert type="info" showIcon title="Ошибок нет" description={<ImportCounts result={checked} />} />}
        {checked?.preview && <PreviewChanges key={checked.preview.id} id={checked.preview.id} />}
        {applied && (
          <Alert type="success" showIcon title="Прайс-лист применён" description={<ImportCounts result={applied} />} />
        )}
        <Button
          type="primary"
          disabled={!checked?.preview}
          loading={applying}
          onClick={() => checked?.preview && applyPreview(checked.preview.id)}
        >
          Применить
        </Button>
      </Flex>
    </Card>
  );
}

/** Импорт и экспорт: the price list out as XLSX or CSV, and back in with a check first. */
export default function PriceListPage() {
  return (
    <>
      <PageTitle name="Импорт и экспорт" />
      <div className="admin-page-head">
        <Typography.Title>Импорт и экспорт</Typography.Title>
      </div>
      <Flex vertical gap="middle">
        <PriceListExport />
        <PriceListImport />
      </Flex>
    </>
  );
}
