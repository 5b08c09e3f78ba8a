import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Result, Tabs, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { CartImportLine, CartImportResult } from '@shared/api';
import { CART_IMPORT_MAX_BYTES, CART_IMPORT_MAX_LINES, QUICK_ORDER_COLUMNS } from '@shared/cart-import';
import { PAGE_PATHS } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { ButtonLink } from '@/components/ButtonLink';
import { piecesCount } from '@/components/piecesCount';
import { addableLines, linesCount, QuickOrderPreview } from './QuickOrderPreview';
import { useAddQuickOrderMutation, useCheckQuickOrderMutation, type QuickOrderInput } from './quickOrderApi';
import './quickOrder.css';

const MAX_LINES = new Intl.NumberFormat('ru-RU').format(CART_IMPORT_MAX_LINES);
const MAX_SIZE = new Intl.NumberFormat('ru-RU', { style: 'unit', unit: 'megabyte' }).format(
  CART_IMPORT_MAX_BYTES / 1024 / 1024,
);
const COLUMNS = QUICK_ORDER_COLUMNS.join(', ');
const EXAMPLE = 'MO-1008 коричневый 90 10';

const inputSize = (input: QuickOrderInput) => ('text' in input ? new Blob([input.text]).size : input.file.size);

/**
 * The problems of a refused addition, put on the lines the buyer sees: the server numbered the
 * lines it was sent (the valid ones, in order), so its line N is the N-th of `sent`.
 */
function withRefusals(lines: CartImportLine[], sent: CartImportLine[], answered: CartImportLine[]): CartImportLine[] {
  const problems = new Map(
    answered.flatMap((line) => {
      const original = sent[line.line - 1];
      return line.error !== null && original ? [[original.line, line.error] as const] : [];
    }),
  );
  return lines.map((line) => (problems.has(line.line) ? { ...line, error: problems.get(line.line)! } : line));
}

const refusedLines = (error: unknown) => (error as { data?: Partial<CartImportResult> } | null)?.data?.lines;

function PastedLines({ checking, onCheck }: { checking: boolean; onCheck(text: string): void }) {
  const [text, setText] = useState('');
  return (
    <Flex vertical gap="small" align="start">
      <Input.TextArea
        aria-label="Строки заказа"
        rows={8}
        placeholder={`${EXAMPLE}\nMO-1001\tбелый\t30\t5\nMO-1002;серый;45;12`}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="primary" disabled={!text.trim()} loading={checking} onClick={() => onCheck(text)}>
        Проверить
      </Button>
    </Flex>
  );
}

function SpreadsheetUpload({ checking, onFile }: { checking: boolean; onFile(file: File): void }) {
  const [name, setName] = useState<string | null>(null);
  return (
    <Flex vertical gap="small">
      <Upload.Dragger
        accept=".xlsx,.csv"
        aria-label="Файл заказа"
        showUploadList={false}
        disabled={checking}
        // The file goes through the API slice (the token, its refresh), not antd's own upload.
        beforeUpload={(file) => {
          setName(file.name);
          onFile(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">Перетащите файл сюда или нажмите, чтобы выбрать</p>
        <p className="ant-upload-hint">
          XLSX или CSV до {MAX_SIZE}; в первой строке — заголовки {COLUMNS} (в любом порядке)
        </p>
      </Upload.Dragger>
      {name && <Typography.Text>Файл: {name}</Typography.Text>}
    </Flex>
  );
}

function Explanation() {
  return (
    <Typography.Paragraph>
      Вставьте строки «артикул цвет размер количество», по одной на товар, — например,{' '}
      <Typography.Text code>{EXAMPLE}</Typography.Text>; поля разделяйте табуляцией, «;» или пробелами. Или загрузите
      файл XLSX или CSV со столбцами {COLUMNS}. Сначала список проверяется: вы увидите, что найдено и что не так, и
      добавите в корзину всё найденное одним нажатием. За раз — до {MAX_LINES} строк, файл — до {MAX_SIZE}.
    </Typography.Paragraph>
  );
}

/** What was added, and the way to the cart. */
function Added({ lines, pieces, onAgain }: { lines: number; pieces: number; onAgain(): void }) {
  return (
    <Result
      status="success"
      title={`Добавлено в корзину: ${linesCount(lines)}, ${piecesCount(pieces)}`}
      extra={[
        <ButtonLink key="cart" type="primary" to={PAGE_PATHS.cart}>
          Перейти в корзину
        </ButtonLink>,
        <Button key="again" onClick={onAgain}>
          Новый быстрый заказ
        </Button>,
      ]}
    />
  );
}

/**
 * Quick order: lines pasted or a spreadsheet uploaded are checked by the server (a dry
 * run), shown line by line with their problems, and the valid ones added to the cart with one click.
 */
export function QuickOrder() {
  const [check, { isLoading: checking }] = useCheckQuickOrderMutation();
  const [add, { isLoading: adding }] = useAddQuickOrderMutation();
  const [lines, setLines] = useState<CartImportLine[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<{ lines: number; pieces: number } | null>(null);

  const runCheck = async (input: QuickOrderInput) => {
    setFailure(null);
    setLines(null);
    // Refused here, before a byte is sent: the server would refuse it too, after the whole upload.
    if (inputSize(input) > CART_IMPORT_MAX_BYTES) {
      setFailure(`Больше ${MAX_SIZE} за раз не проверить: разделите заказ на части.`);
      return;
    }
    try {
      setLines((await check(input).unwrap()).lines);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось проверить заказ. Попробуйте ещё раз.');
    }
  };

  const addValid = async () => {
    if (!lines) return;
    const { valid, pieces } = addableLines(lines);
    setFailure(null);
    try {
      const answer = await add(valid).unwrap();
      setAdded({ lines: answer.valid, pieces });
      setLines(null);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось добавить товары в корзину. Попробуйте ещё раз.');
      const refused = refusedLines(error);
      if (refused) setLines(withRefusals(lines, valid, refused));
    }
  };

  if (added) return <Added {...added} onAgain={() => setAdded(null)} />;

  return (
    <Flex vertical gap="middle">
      <Explanation />
      <Tabs
        items={[
          {
            key: 'text',
            label: 'Вставить списком',
            children: <PastedLines checking={checking} onCheck={(text) => runCheck({ text })} />,
          },
          {
            key: 'file',
            label: 'Загрузить файл',
            children: <SpreadsheetUpload checking={checking} onFile={(file) => runCheck({ file })} />,
          },
        ]}
      />
      {failure && <Alert type="error" showIcon title={failure} />}
      {lines && <QuickOrderPreview lines={lines} adding={adding} onAdd={addValid} />}
    </Flex>
  );
}
