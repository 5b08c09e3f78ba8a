import { DownloadOutlined, LinkOutlined, UploadOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
// The picker's month and day names: antd's ru_RU locale names dayjs's «ru», which must be loaded.
import 'dayjs/locale/ru';
import { useState } from 'react';
import type { ConformityDocument, ConformityDocumentFields } from '@shared/api';
import { formatCalendarDay } from '@shared/dates';
import { pluralForm } from '@shared/plurals';
import {
  CONFORMITY_DOCUMENT_KINDS,
  CONFORMITY_DOCUMENT_LABELS,
  PRODUCT_CARD_LIMITS,
  TOY_REGULATION,
  type ConformityDocumentKind,
} from '@shared/product-card';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { CatalogueList, RowActions, useRowAction } from '../catalogue/CatalogueList';
import { useGetAdminProductsQuery } from '../catalogue/catalogueAdminApi';
import { EditDialog } from '../catalogue/EditDialog';
import {
  useCreateConformityDocumentMutation,
  useDeleteConformityDocumentMutation,
  useDownloadConformityPdfMutation,
  useGetConformityDocumentsQuery,
  useGetCoveredProductsQuery,
  useReplaceConformityPdfMutation,
  useSetCoveredProductsMutation,
  useUpdateConformityDocumentMutation,
} from './conformityDocumentsApi';

const DAY = 'YYYY-MM-DD';
/** A document this close to its last day is flagged, so that a new one is asked for in time. */
const EXPIRY_WARNING_DAYS = 30;
const PDF_MAX_MB = PRODUCT_CARD_LIMITS.documentPdfMax / (1024 * 1024);

interface DocumentForm {
  kind: ConformityDocumentKind;
  regulation: string;
  number: string;
  validity: [Dayjs, Dayjs];
  /** The picked PDF's name (the file itself is kept beside the form: its store copies what it holds). */
  pdf?: string;
}

const documentName = ({ number }: ConformityDocument) => `Документ ${number}`;
const days = (count: number) => pluralForm(count, { one: 'день', few: 'дня', many: 'дней' });

/** «Истёк» or «Истекает через N дней» for a document ending within EXPIRY_WARNING_DAYS; nothing otherwise. */
export function expiryWarning(document: Pick<ConformityDocument, 'valid_to' | 'expired'>, today: Dayjs): string | null {
  if (document.expired) return 'Истёк';
  const left = dayjs(document.valid_to).diff(today.startOf('day'), 'day');
  if (left > EXPIRY_WARNING_DAYS) return null;
  return left === 0 ? 'Истекает сегодня' : `Истекает через ${left} ${days(left)}`;
}

function documentFields({ kind, regulation, number, validity }: DocumentForm): ConformityDocumentFields {
  return {
    kind,
    regulation: regulation.trim(),
    number: number.trim(),
    valid_from: validity[0].format(DAY),
    valid_to: validity[1].format(DAY),
  };
}

interface PdfFieldProps {
  /** The picked file's name, the form's value. */
  value?: string;
  onChange?(name: string): void;
  /** The file itself, sent on «Сохранить». */
  onPick(file: File): void;
}

/** The PDF picked for upload (nothing is sent until «Сохранить»). */
function PdfField({ value, onChange, onPick }: PdfFieldProps) {
  return (
    <Flex gap="small" align="center" wrap>
      <Upload
        accept=".pdf,application/pdf"
        aria-label="Файл PDF"
        showUploadList={false}
        beforeUpload={(file) => {
          onPick(file);
          onChange?.(file.name);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined aria-hidden />}>Выбрать PDF</Button>
      </Upload>
      {value && <Typography.Text>{value}</Typography.Text>}
    </Flex>
  );
}

// Mounted afresh for each opening, so its form starts from the document being changed.
function DocumentDialog({ document, onClose }: { document?: ConformityDocument; onClose(): void }) {
  const [create, creating] = useCreateConformityDocumentMutation();
  const [update, updating] = useUpdateConformityDocumentMutation();
  const [replacePdf, replacing] = useReplaceConformityPdfMutation();
  const [pdf, setPdf] = useState<File | null>(null);

  const save = async (values: DocumentForm) => {
    const fields = documentFields(values);
    if (!document) {
      await create({ fields, pdf: pdf! }).unwrap();
      return 'Документ добавлен';
    }
    const patch = Object.fromEntries(
      Object.entries(fields).filter(([key, value]) => document[key as keyof ConformityDocumentFields] !== value),
    );
    if (Object.keys(patch).length === 0 && !pdf) return null;
    if (Object.keys(patch).length > 0) await update({ id: document.id, patch }).unwrap();
    if (pdf) await replacePdf({ id: document.id, pdf }).unwrap();
    return 'Документ сохранён';
  };

  return (
    <EditDialog<DocumentForm>
      title={document ? documentName(document) : 'Новый документ соответствия'}
      initialValues={
        document
          ? { ...document, validity: [dayjs(document.valid_from), dayjs(document.valid_to)] }
          : { kind: 'declaration', regulation: TOY_REGULATION }
      }
      saving={creating.isLoading || updating.isLoading || replacing.isLoading}
      save={save}
      failureText="Не удалось сохранить документ"
      onClose={onClose}
    >
      <Form.Item label="Вид" name="kind" rules={[{ required: true, message: 'Выберите вид документа' }]}>
        <Select
          options={CONFORMITY_DOCUMENT_KINDS.map((kind) => ({ value: kind, label: CONFORMITY_DOCUMENT_LABELS[kind] }))}
        />
      </Form.Item>
      <Form.Item
        label="Технический регламент"
        name="regulation"
        rules={[
          { required: true, whitespace: true, message: 'Укажите технический регламент' },
          { max: PRODUCT_CARD_LIMITS.textMax, message: `Не длиннее ${PRODUCT_CARD_LIMITS.textMax} символов` },
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Номер"
        name="number"
        rules={[
          { required: true, whitespace: true, message: 'Укажите номер документа' },
          {
            max: PRODUCT_CARD_LIMITS.documentNumberMax,
            message: `Не длиннее ${PRODUCT_CARD_LIMITS.documentNumberMax} символов`,
          },
        ]}
      >
        <Input autoComplete="off" placeholder="ЕАЭС N RU Д-CN.РА01.В.12345/26" />
      </Form.Item>
      <Form.Item label="Срок действия" name="validity" rules={[{ required: true, message: 'Укажите срок действия' }]}>
        <DatePicker.RangePicker format="DD.MM.YYYY" placeholder={['Действует с', 'Действует по']} />
      </Form.Item>
      <Form.Item
        label="PDF документа"
        name="pdf"
        extra={document ? `Новый файл заменит прежний; до ${PDF_MAX_MB} МБ` : `До ${PDF_MAX_MB} МБ`}
        rules={[
          { required: !document, message: 'Приложите PDF документа' },
          {
            validator: async () => {
              if (pdf && pdf.size > PRODUCT_CARD_LIMITS.documentPdfMax) throw new Error(`Файл больше ${PDF_MAX_MB} МБ`);
            },
          },
        ]}
      >
        <PdfField onPick={setPdf} />
      </Form.Item>
    </EditDialog>
  );
}

/** The products a document covers: chosen by article or name from the back office's products. */
function ProductsDialog({ document, onClose }: { document: ConformityDocument; onClose(): void }) {
  const { message } = App.useApp();
  const { data: covered, isLoading } = useGetCoveredProductsQuery(document.id);
  const [search, setSearch] = useState('');
  const { data: found, isFetching } = useGetAdminProductsQuery(
    { q: search.trim(), limit: 20 },
    { skip: search.trim() === '' },
  );
  const [chosen, setChosen] = useState<{ value: number; label: string }[] | null>(null);
  const [setProducts, saving] = useSetCoveredProductsMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const selected = chosen ?? (covered ?? []).map(({ id, art, name }) => ({ value: id, label: `${art} — ${name}` }));

  const save = async () => {
    setFailure(null);
    try {
      await setProducts({ id: document.id, products: selected.map(({ value }) => value) }).unwrap();
      message.success('Товары документа сохранены');
      onClose();
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось сохранить товары документа');
    }
  };

  return (
    <Modal
      open
      title={`Товары: ${documentName(document)}`}
      okText="Сохранить"
      cancelText="Отмена"
      confirmLoading={saving.isLoading}
      onOk={() => void save()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        Товар, у которого указан другой документ, перейдёт к этому.
      </Typography.Paragraph>
      <Select
        mode="multiple"
        labelInValue
        aria-label="Товары документа"
        style={{ width: '100%' }}
        placeholder="Артикул или название"
        loading={isLoading || isFetching}
        value={selected}
        filterOption={false}
        showSearch={{ onSearch: setSearch }}
        options={(found?.items ?? []).map(({ id, art, name }) => ({ value: id, label: `${art} — ${name}` }))}
        onChange={(value) => {
          setFailure(null);
          setChosen(value);
        }}
        notFoundContent={search.trim() ? 'Товаров не найдено' : 'Начните вводить артикул'}
      />
      {failure && <Alert type="error" showIcon title={failure} />}
    </Modal>
  );
}

type Opened = { dialog: 'edit'; document?: ConformityDocument } | { dialog: 'products'; document: ConformityDocument };

/** Документы соответствия: сертификаты and декларации with their PDFs, their validity and the products each covers. */
export function ConformityDocumentsPage() {
  const { message } = App.useApp();
  const { data: documents, isFetching, isError } = useGetConformityDocumentsQuery();
  const [remove] = useDeleteConformityDocumentMutation();
  const [download, downloading] = useDownloadConformityPdfMutation();
  const [opened, setOpened] = useState<Opened | null>(null);
  const { attempt, failure, dismissFailure } = useRowAction();
  const today = dayjs();

  const save = async (document: ConformityDocument) => {
    try {
      await download(document).unwrap();
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось скачать PDF');
    }
  };

  const columns: TableColumnsType<ConformityDocument> = [
    { title: 'Вид', dataIndex: 'kind', render: (kind: ConformityDocumentKind) => CONFORMITY_DOCUMENT_LABELS[kind] },
    { title: 'Регламент', dataIndex: 'regulation' },
    { title: 'Номер', dataIndex: 'number' },
    {
      title: 'Срок действия',
      key: 'validity',
      render: (_value, document) => {
        const warning = expiryWarning(document, today);
        return (
          <Flex gap="small" wrap>
            {`${formatCalendarDay(document.valid_from)} — ${formatCalendarDay(document.valid_to)}`}
            {warning && <Tag color="red">{warning}</Tag>}
          </Flex>
        );
      },
    },
    {
      title: 'Товаров',
      dataIndex: 'products',
      align: 'right',
      render: (count: number, document) => (
        <Button
          type="link"
          size="small"
          icon={<LinkOutlined aria-hidden />}
          aria-label={`Товары: ${documentName(document)} (${count})`}
          onClick={() => setOpened({ dialog: 'products', document })}
        >
          {count}
        </Button>
      ),
    },
    {
      title: 'PDF',
      key: 'pdf',
      render: (_value, document) => (
        <Button
          type="link"
          size="small"
          icon={<DownloadOutlined aria-hidden />}
          aria-label={`Скачать PDF: ${documentName(document)}`}
          loading={downloading.isLoading && downloading.originalArgs?.id === document.id}
          onClick={() => void save(document)}
        >
          {`${(document.pdf_bytes / 1024).toFixed(0)} КБ`}
        </Button>
      ),
    },
    {
      title: 'Действия',
      key: 'actions',
      width: 120,
      render: (_value, document) => (
        <RowActions
          editLabel={`Изменить: ${documentName(document)}`}
          deleteLabel={`Удалить: ${documentName(document)}`}
          confirmDelete="Удалить документ?"
          onEdit={() => setOpened({ dialog: 'edit', document })}
          onDelete={() => attempt(() => remove(document.id).unwrap(), 'Документ удалён', 'Не удалось удалить документ')}
        />
      ),
    },
  ];

  return (
    <CatalogueList
      title="Документы соответствия"
      addLabel="Добавить документ"
      onAdd={() => setOpened({ dialog: 'edit' })}
      loadFailure={isError ? 'Не удалось загрузить документы' : undefined}
      failure={failure}
      onDismissFailure={dismissFailure}
      columns={columns}
      rows={documents}
      loading={isFetching}
      emptyText="Документов нет"
    >
      {opened?.dialog === 'edit' && <DocumentDialog document={opened.document} onClose={() => setOpened(null)} />}
      {opened?.dialog === 'products' && <ProductsDialog document={opened.document} onClose={() => setOpened(null)} />}
    </CatalogueList>
  );
}
