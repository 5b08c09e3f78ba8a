import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, type JsonBodyType } from 'msw';
import type { Cart, CartImportLine, CartImportResult } from '@shared/api';
import { CART_IMPORT_MAX_BYTES } from '@shared/cart-import';
import { cart, cartItem, installUserNetwork, json, loggedIn, recorder, unprovenBuyer } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function importLine(overrides: Partial<CartImportLine> & { line: number }): CartImportLine {
  return {
    art: 'MO-1008',
    color: 'коричневый',
    size: 90,
    count: 10,
    product_id: 8,
    variant_id: 81,
    name: 'Мишка Тедди',
    price: 1499.9,
    multiple: 1,
    min_quantity: 1,
    stock: 40,
    unproven_held: 0,
    error: null,
    ...overrides,
  };
}

const result = (lines: CartImportLine[]): CartImportResult => ({
  lines,
  valid: lines.filter((line) => line.error === null).length,
  invalid: lines.filter((line) => line.error !== null).length,
});

const MISSING: Partial<CartImportLine> = {
  art: 'MO-9999',
  product_id: null,
  variant_id: null,
  name: null,
  price: null,
  multiple: null,
  min_quantity: null,
  stock: null,
  error: 'Артикул MO-9999 не найден',
};

/** Two lines that may be added around one that may not. */
const CHECKED = result([
  importLine({ line: 1 }),
  importLine({ line: 2, ...MISSING, color: 'белый', size: 30, count: 3 }),
  importLine({ line: 3, art: 'MO-1001', name: 'Зайка', color: 'белый', size: 30, count: 5, price: 500 }),
]);

const PASTED = 'MO-1008 коричневый 90 10\nMO-9999 белый 30 3\nMO-1001;белый;30;5';

type Answer = { status: number; body: JsonBodyType };
const ok = (body: CartImportResult): Answer => ({ status: 200, body });

/**
 * POST /cart/import: answers `dryRun` to a check and `added` to an addition, recording both; the
 * cart (for the header's badge) holds `cartAfter` once an addition succeeded.
 */
function openQuickOrder({ dryRun, added, cartAfter }: { dryRun: Answer; added?: Answer; cartAfter?: Cart }) {
  const checks = recorder();
  const additions = recorder();
  let cartNow = cart([]);
  installUserNetwork(
    cart([]),
    http.get(`${API}/cart/:userId`, () => json(cartNow)),
    http.post(`${API}/cart/import`, ({ request }) => {
      const real = new URL(request.url).searchParams.get('dry_run') === 'false';
      (real ? additions : checks).record(request);
      const { status, body } = real ? added! : dryRun;
      if (real && status === 200 && cartAfter) cartNow = cartAfter;
      return json(body, status);
    }),
  );
  const user = userEvent.setup();
  const rendered = renderShop({ route: '/quick-order', preloadedState: loggedIn() });
  return { user, checks, additions, ...rendered };
}

async function pasteAndCheck(user: ReturnType<typeof userEvent.setup>, text = PASTED) {
  await user.click(await screen.findByRole('textbox', { name: 'Строки заказа' }));
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Проверить' }));
}

/** The preview's row of a line, by its number in the first column. */
function rowOf(line: number): HTMLElement {
  const row = screen
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryAllByRole('cell')[0]?.textContent === String(line));
  if (!row) throw new Error(`No row for line ${line}`);
  return row;
}

const addButton = () => screen.getByRole('button', { name: /^Добавить в корзину/ });
const fileInput = () => screen.getByLabelText('Файл заказа');

describe('Quick order page', () => {
  test('explains the line format, the file columns and the limits, and names itself in the title', async () => {
    openQuickOrder({ dryRun: ok(CHECKED) });
    expect(await screen.findByRole('heading', { name: 'Быстрый заказ', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('MO-1008 коричневый 90 10')).toBeInTheDocument();
    expect(screen.getByText(/со столбцами Артикул, Цвет, Размер, Количество/)).toBeInTheDocument();
    expect(screen.getByText(/до 5 000 строк, файл — до 5 МБ/)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Вставить списком' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Загрузить файл' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Проверить' })).toBeDisabled();
    await waitFor(() => expect(document.title).toBe('Быстрый заказ — Мягкий Опт'));
  });

  test('«Проверить» sends the pasted text as text/plain with dry_run=true and shows each problem on its line', async () => {
    const { user, checks } = openQuickOrder({ dryRun: ok(CHECKED) });
    await pasteAndCheck(user);

    const problem = await screen.findByText('Артикул MO-9999 не найден');
    expect(rowOf(2)).toContainElement(problem);
    expect(problem).toHaveClass('ant-typography-danger');
    expect(rowOf(2)).toHaveClass('quick-order-line-invalid');
    expect(rowOf(1)).not.toHaveClass('quick-order-line-invalid');
    expect(within(rowOf(1)).getByText('Мишка Тедди')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('500,00 ₽')).toBeInTheDocument();
    expect(screen.getByText('Можно добавить: 2 строки')).toBeInTheDocument();
    expect(screen.getByText('С ошибками: 1 строка')).toBeInTheDocument();
    expect(addButton()).toHaveTextContent('Добавить в корзину: 2 строки, 15 штук');

    expect(checks.calls).toHaveLength(1);
    const sent = checks.last!;
    expect(new URL(sent.url).searchParams.get('dry_run')).toBe('true');
    expect(sent.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await sent.text()).toBe(PASTED);
  });

  test('«Показать только строки с ошибками» leaves the lines with problems', async () => {
    const { user } = openQuickOrder({ dryRun: ok(CHECKED) });
    await pasteAndCheck(user);
    await screen.findByText('Артикул MO-9999 не найден');
    await user.click(screen.getByRole('checkbox', { name: 'Показать только строки с ошибками' }));
    expect(screen.queryByText('Мишка Тедди')).not.toBeInTheDocument();
    expect(rowOf(2)).toBeInTheDocument();
  });

  test('a long preview is shown a page at a time', async () => {
    const many = result(Array.from({ length: 500 }, (_, index) => importLine({ line: index + 1 })));
    const { user } = openQuickOrder({ dryRun: ok(many) });
    await pasteAndCheck(user, 'MO-1008 коричневый 90 10');
    expect(await screen.findByText('Можно добавить: 500 строк')).toBeInTheDocument();
    // The header row and one page of 50.
    expect(screen.getAllByRole('row')).toHaveLength(51);
    expect(screen.getByRole('listitem', { name: '10' })).toBeInTheDocument();
  });

  test('«Добавить в корзину» sends only the valid lines, tab-separated, with dry_run=false, and the cart reloads', async () => {
    const added = result([importLine({ line: 1 }), importLine({ line: 2, art: 'MO-1001', count: 5 })]);
    const { user, additions } = openQuickOrder({
      dryRun: ok(CHECKED),
      added: ok(added),
      cartAfter: cart([cartItem({ id: 1, count: 10 }), cartItem({ id: 2, count: 5, variant_id: 102 })]),
    });
    await pasteAndCheck(user);
    await screen.findByText('Артикул MO-9999 не найден');
    await user.click(addButton());

    expect(await screen.findByText('Добавлено в корзину: 2 строки, 15 штук')).toBeInTheDocument();
    expect(additions.calls).toHaveLength(1);
    const sent = additions.last!;
    expect(new URL(sent.url).searchParams.get('dry_run')).toBe('false');
    expect(sent.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await sent.text()).toBe('MO-1008\tкоричневый\t90\t10\nMO-1001\tбелый\t30\t5');
    // The header's badge counts the new cart.
    expect(await screen.findByRole('button', { name: 'Корзина, товаров: 15' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Перейти в корзину' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Корзина', level: 1 })).toBeInTheDocument());
  });

  test('a refused addition shows its detail and puts the new problem on the line the buyer pasted', async () => {
    const refused = result([
      importLine({ line: 1 }),
      importLine({ line: 2, art: 'MO-1001', count: 5, stock: 2, error: 'На складе только 2 шт.' }),
    ]);
    const { user } = openQuickOrder({
      dryRun: ok(CHECKED),
      added: { status: 422, body: { detail: 'Есть строки с ошибками: ничего не добавлено', ...refused } },
    });
    await pasteAndCheck(user);
    await screen.findByText('Артикул MO-9999 не найден');
    await user.click(addButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Есть строки с ошибками: ничего не добавлено');
    // The server's line 2 was the second line sent, the buyer's line 3.
    expect(within(rowOf(3)).getByText('На складе только 2 шт.')).toBeInTheDocument();
    expect(screen.getByText('С ошибками: 2 строки')).toBeInTheDocument();
    expect(addButton()).toHaveTextContent('Добавить в корзину: 1 строка, 10 штук');
  });

  test("a refused check shows the server's detail", async () => {
    const { user } = openQuickOrder({ dryRun: { status: 422, body: { detail: 'Не удалось прочитать строки' } } });
    await pasteAndCheck(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось прочитать строки');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  test('a file goes as multipart in the field «file», with dry_run=true', async () => {
    const { user, checks } = openQuickOrder({ dryRun: ok(CHECKED) });
    await user.click(await screen.findByRole('tab', { name: 'Загрузить файл' }));
    await user.upload(fileInput(), new NodeFile(['x'], 'заказ.xlsx') as unknown as File);

    expect(await screen.findByText('Артикул MO-9999 не найден')).toBeInTheDocument();
    expect(screen.getByText('Файл: заказ.xlsx')).toBeInTheDocument();
    const sent = checks.last!;
    expect(new URL(sent.url).searchParams.get('dry_run')).toBe('true');
    expect(sent.headers.get('content-type')).toMatch(/^multipart\/form-data/);
    expect(((await sent.formData()).get('file') as unknown as File).name).toBe('заказ.xlsx');
  });

  test('a file that is not a spreadsheet gets the 415 detail', async () => {
    const { user } = openQuickOrder({
      dryRun: { status: 415, body: { detail: 'Нужен файл XLSX или CSV' } },
    });
    await user.click(await screen.findByRole('tab', { name: 'Загрузить файл' }));
    await user.upload(fileInput(), new NodeFile(['x'], 'заказ.csv') as unknown as File);
    expect(await screen.findByRole('alert')).toHaveTextContent('Нужен файл XLSX или CSV');
  });

  test('a file over the size limit is refused before it is sent', async () => {
    const { user, checks } = openQuickOrder({ dryRun: ok(CHECKED) });
    await user.click(await screen.findByRole('tab', { name: 'Загрузить файл' }));
    const large = new NodeFile([new Uint8Array(CART_IMPORT_MAX_BYTES + 1)], 'большой.xlsx') as unknown as File;
    await user.upload(fileInput(), large);

    expect(await screen.findByRole('alert')).toHaveTextContent('Больше 5 МБ за раз не проверить');
    expect(checks.calls).toHaveLength(0);
  });
});

describe('Quick order page: the limit of one order', () => {
  const LIMITED = result([
    importLine({ line: 1, count: 25, stock: 40 }),
    importLine({ line: 2, art: 'MO-1001', name: 'Зайка', count: 20, stock: 40 }),
  ]);

  test('a buyer who has not paid an order yet sees «Не больше N шт. за один заказ…» on the line that goes beyond it', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    const { user } = openQuickOrder({ dryRun: ok(LIMITED) });
    await pasteAndCheck(user, 'MO-1008 коричневый 90 25\nMO-1001 белый 30 20');
    expect(
      await within(rowOf(1)).findByText(
        'Не больше 20 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру',
      ),
    ).toBeInTheDocument();
    expect(within(rowOf(2)).queryByText(/за один заказ/)).not.toBeInTheDocument();
    // Still a line that may go into the cart: the limit is the order's.
    expect(addButton()).toHaveTextContent('Добавить в корзину: 2 строки, 45 штук');
  });

  test('a proven buyer sees no limit on the same lines', async () => {
    const { user } = openQuickOrder({ dryRun: ok(LIMITED) });
    await pasteAndCheck(user, 'MO-1008 коричневый 90 25\nMO-1001 белый 30 20');
    await screen.findByText('Можно добавить: 2 строки');
    expect(screen.queryByText(/за один заказ/)).not.toBeInTheDocument();
  });
});
