import { UploadRefusedError } from '../domain/domain-errors';
import { statusOfDomainError } from '../plugins/error-handler';
import type { ArticleVariant } from '../repositories/cart';
import {
  checkQuickOrder,
  namedArticles,
  readPastedQuickOrder,
  readUploadedQuickOrder,
  type QuickOrderEntry,
} from './quick-order';

const fields = (entries: QuickOrderEntry[]) =>
  entries.map(({ line, art, color, size, count, problem }) => ({ line, art, color, size, count, problem }));

const line = (number: number, art: string, color: string, size: number, count: number) => ({
  line: number,
  art,
  color,
  size,
  count,
  problem: null,
});

describe('readPastedQuickOrder', () => {
  it('splits on tabs, on «;», and on one or several spaces; a colour may have spaces', () => {
    const text = [
      'MO-1008\tкоричневый\t90\t10',
      'MO-1008; бежевый ;60;2',
      'MO-1009 белый 25 1',
      '  MO-1010    светло   бежевый   35   4  ',
      'MO-1011\tсветло бежевый\t35\t3\t',
    ].join('\n');
    expect(fields(readPastedQuickOrder(text))).toEqual([
      line(1, 'MO-1008', 'коричневый', 90, 10),
      line(2, 'MO-1008', 'бежевый', 60, 2),
      line(3, 'MO-1009', 'белый', 25, 1),
      line(4, 'MO-1010', 'светло бежевый', 35, 4),
      line(5, 'MO-1011', 'светло бежевый', 35, 3),
    ]);
  });

  it('skips empty lines and a header in the first line, numbering lines as the text has them', () => {
    const text =
      '\uFEFF\r\nартикул ЦВЕТ Размер Количество\r\n\r\n   \r\nMO-1008 бежевый 60 2\r\n\r\nMO-1009 белый 25 1';
    expect(fields(readPastedQuickOrder(text))).toEqual([
      line(5, 'MO-1008', 'бежевый', 60, 2),
      line(7, 'MO-1009', 'белый', 25, 1),
    ]);
    // Only the first line can be the header: further on it is a line with an unreadable size.
    const [, second] = readPastedQuickOrder('MO-1008 бежевый 60 2\nАртикул Цвет Размер Количество');
    expect(second!.problem).toBe(
      'Размер должен быть целым числом сантиметров; Количество должно быть целым числом от 1',
    );
  });

  it('names what is missing or unreadable on its line, keeping what it read', () => {
    const entries = readPastedQuickOrder(
      [
        'MO-1008;бежевый;60',
        'MO-1008;;60;0',
        'MO-1008 бежевый 60 два',
        'MO-1008 бежевый 60',
        'MO-1;белый;25;1;лишнее',
        'MO-1 белый 25 10001',
      ].join('\n'),
    );
    expect(fields(entries)).toEqual([
      { line: 1, art: 'MO-1008', color: 'бежевый', size: 60, count: null, problem: 'Не заполнено: количество' },
      {
        line: 2,
        art: 'MO-1008',
        color: null,
        size: 60,
        count: 0,
        problem: 'Не заполнено: цвет; Количество должно быть целым числом от 1',
      },
      {
        line: 3,
        art: 'MO-1008',
        color: 'бежевый',
        size: 60,
        count: null,
        problem: 'Количество должно быть целым числом от 1',
      },
      {
        line: 4,
        art: 'MO-1008',
        color: null,
        size: null,
        count: null,
        problem: 'Строка не разобрана: нужны артикул, цвет, размер, количество через пробел, табуляцию или «;»',
      },
      {
        line: 5,
        art: 'MO-1',
        color: 'белый',
        size: 25,
        count: 1,
        problem: 'Лишние значения: в строке нужны только артикул, цвет, размер, количество',
      },
      {
        line: 6,
        art: 'MO-1',
        color: 'белый',
        size: 25,
        count: 10001,
        problem: 'Количество должно быть не больше 10000',
      },
    ]);
  });

  it('nothing but a header or blanks, or more than 5 000 lines → 422', () => {
    for (const text of ['', '\n  \n', 'Артикул;Цвет;Размер;Количество\n']) {
      expect(() => readPastedQuickOrder(text)).toThrow(
        expect.objectContaining({
          name: UploadRefusedError.name,
          detail: expect.stringMatching(/^Нет ни одной строки с товаром/),
        }),
      );
    }
    expect(readPastedQuickOrder('MO-1 белый 25 1\n'.repeat(5000))).toHaveLength(5000);
    const tooMany = () => readPastedQuickOrder('MO-1 белый 25 1\n'.repeat(5001));
    expect(tooMany).toThrow(UploadRefusedError);
    expect(statusOfDomainError.get(UploadRefusedError)).toBe(422);
    expect(tooMany).toThrow(/^Слишком много строк: за один раз можно не более 5000\. /);
  });
});

describe('readUploadedQuickOrder: a CSV', () => {
  const csv = (rows: string[]) => Buffer.from(['Артикул;Цвет;Размер;Количество', ...rows].join('\r\n'));
  const goods = (count: number) => Array.from({ length: count }, (_, index) => `MO-${index + 1};белый;25;1`);
  // Excel writes a formatted empty row as «;;;»: such rows are skipped, neither read nor counted.
  const blanks = (count: number) => Array.from({ length: count }, () => ';;;');

  it('reads every line of goods however many empty rows are between them', async () => {
    const entries = await readUploadedQuickOrder(
      csv([...goods(4990).slice(0, 10), ...blanks(50), ...goods(4990).slice(10)]),
    );
    expect(entries).toHaveLength(4990);
    expect(entries.at(-1)).toMatchObject({ line: 5041, art: 'MO-4990' });
  });

  it('with more than 5 000 lines of goods → 422, not the first 5 000 and the rest silently left out', async () => {
    await expect(readUploadedQuickOrder(csv([...blanks(30), ...goods(5001)]))).rejects.toThrow(
      /^Слишком много строк: за один раз можно не более 5000\. /,
    );
  });
});

describe('namedArticles', () => {
  it('asks the database only for what can be an article', () => {
    const entries = readPastedQuickOrder(`${'A'.repeat(65)} белый 25 1\nMO-1\u0000 белый 25 1\nMO-1 белый 25 1`);
    expect(namedArticles(entries)).toEqual(['MO-1']);
  });
});

describe('checkQuickOrder', () => {
  const variant = (overrides: Partial<ArticleVariant>): ArticleVariant => ({
    art: 'MO-1008',
    productId: 8,
    productName: 'Медведь Тедди',
    variantId: 1,
    color: 'бежевый',
    size: 60,
    price: '1499.90',
    typePrice: null,
    stock: 5,
    unprovenHeld: 0,
    multiple: 1,
    minQuantity: 1,
    ...overrides,
  });
  const catalogue = [
    variant({ variantId: 1 }),
    variant({ variantId: 2, size: 90 }),
    variant({ variantId: 3, color: 'Тёмно-коричневый', size: 90, stock: 0 }),
  ];
  const check = (text: string, inCart = new Map<number, number>()) =>
    checkQuickOrder(readPastedQuickOrder(text), catalogue, inCart).lines.map((found) => found.error);

  it('finds the variant by article in any case and colour with ё as е, and fills in what the preview shows', () => {
    const result = checkQuickOrder(readPastedQuickOrder('mo-1008 БЕЖЕВЫЙ 90 3'), catalogue, new Map());
    expect(result).toEqual({
      lines: [
        {
          line: 1,
          art: 'mo-1008',
          color: 'БЕЖЕВЫЙ',
          size: 90,
          count: 3,
          product_id: 8,
          variant_id: 2,
          name: 'Медведь Тедди',
          price: 1499.9,
          stock: 5,
          unproven_held: 0,
          multiple: 1,
          min_quantity: 1,
          error: null,
        },
      ],
      valid: 1,
      invalid: 0,
    });
    expect(check('MO-1008 темно-коричневый 90 1')).toEqual(['Товара «Медведь Тедди» нет в наличии']);
  });

  it('says what is wrong with each line in the buyer’s words', () => {
    expect(
      check(
        [
          'MO-9999 бежевый 60 1',
          'MO-1008 зелёный 60 1',
          'MO-1008 бежевый 200 1',
          'MO-1008 бежевый 60 1',
          'MO-1008 Бежевый 60 2',
          'MO-1008 бежевый 90 0',
        ].join('\n'),
      ),
    ).toEqual([
      'Артикул MO-9999 не найден',
      'Нет цвета зелёный у артикула MO-1008; есть: бежевый, Тёмно-коричневый',
      'Нет размера 200 у цвета бежевый',
      null,
      'Этот вариант уже есть в строке 4',
      'Количество должно быть целым числом от 1',
    ]);
  });

  it('counts what the cart already holds against the limit of one variant', () => {
    expect(check('MO-1008 бежевый 60 9000', new Map([[1, 1000]]))).toEqual([null]);
    expect(check('MO-1008 бежевый 60 9001', new Map([[1, 1000]]))).toEqual([
      'В корзине уже 1000 шт. этого варианта, а вместе можно не больше 10000',
    ]);
  });
});
