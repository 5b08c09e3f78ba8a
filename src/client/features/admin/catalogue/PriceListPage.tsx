import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { ImportResult } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from '@/components/PageTitle';
import { useDownloadPriceListMutation, useImportPriceListMutation, type PriceListFormat } from './catalogueAdminApi';

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
          Весь каталог, по строке на вариант: Артикул, Название, Категория, Цвет, Размер, Цена, Остаток.
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
  const { created, updated, unchanged, dry_run: dryRun } = result;
  const counts = dryRun
    ? `Будет добавлено: ${created}, изменено: ${updated}, без изменений: ${unchanged}.`
    : `Добавлено: ${created}, изменено: ${updated}, без изменений: ${unchanged}.`;
  return <Typography.Paragraph>{counts}</Typography.Paragraph>;
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

/**
 * The import: the chosen file is checked first (a dry run changes nothing) and only a file without
 * errors can be applied; the server applies it all or nothing.
 */
function PriceListImport() {
  const [importFile, { isLoading }] = useImportPriceListMutation();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (chosen: File, dryRun: boolean) => {
    setFailure(null);
    try {
      setResult(await importFile({ file: chosen, dryRun }).unwrap());
    } catch (error) {
      setResult(null);
      setFailure(serverErrorDetail(error) ?? 'Не удалось прочитать файл');
    }
  };

  const checked = result?.dry_run ? result : null;
  const applied = result && !result.dry_run && !result.errors.length ? result : null;

  return (
    <Card title="Импорт" size="small">
      <Flex vertical gap="small" align="start">
        <Typography.Paragraph>
          Файл XLSX или CSV с теми же столбцами, что и в выгрузке. Сначала файл проверяется, и видно, что изменится;
          применить можно только файл без ошибок.
        </Typography.Paragraph>
        <Upload
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          aria-label="Файл прайс-листа"
          showUploadList={false}
          beforeUpload={(chosen) => {
            setFile(chosen);
            void run(chosen, true);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={isLoading && !checked}>
            Выбрать файл и проверить
          </Button>
        </Upload>
        {file && <Typography.Text>Файл: {file.name}</Typography.Text>}
        {failure && <Alert type="error" showIcon title={failure} />}
        {result && result.errors.length > 0 && <ImportErrors errors={result.errors} />}
        {checked && !checked.errors.length && (
          <Alert type="info" showIcon title="Ошибок нет" description={<ImportCounts result={checked} />} />
        )}
        {applied && (
          <Alert type="success" showIcon title="Прайс-лист применён" description={<ImportCounts result={applied} />} />
        )}
        <Button
          type="primary"
          disabled={!file || !checked || checked.errors.length > 0}
          loading={isLoading && Boolean(checked)}
          onClick={() => file && run(file, false)}
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
