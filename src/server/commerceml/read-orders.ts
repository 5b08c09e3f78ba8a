import type { NamedValue, OrderDocumentRecord } from './records';
import { parseDecimal, readCommerceMl, type ElementHandler, type ReaderContext } from './xml-reader';

/**
 * The orders file 1С sends back (type=sale&mode=file): each Документ with its requisites (the
 * statuses: «Дата оплаты по 1С», «Проведен»…) and its lines as 1С has them now.
 */

type OrderLine = OrderDocumentRecord['lines'][number];

const newDocument = (): OrderDocumentRecord => ({
  kind: 'order',
  id: '',
  number: '',
  date: '',
  sum: null,
  requisites: [],
  lines: [],
});
const newLine = (): OrderLine => ({ id: '', article: '', name: '', price: 0, quantity: 0, sum: 0 });

function ordersHandler({ emit, fail }: ReaderContext<OrderDocumentRecord>): ElementHandler {
  const number = (text: string, element: string) => parseDecimal(text, element, fail);
  let document: OrderDocumentRecord | null = null;
  let documentDepth = 0;
  let requisite: NamedValue = { name: '', value: '' };
  let line = newLine();

  return {
    open(stack) {
      const name = stack.at(-1);
      if (!document) {
        // A Документ of the file itself (CommerceML 3 wraps each in a Контейнер), not a ПодчиненныйДокумент.
        const parent = stack.at(-2);
        if (name === 'Документ' && (stack.length === 2 || parent === 'Контейнер')) {
          document = newDocument();
          documentDepth = stack.length;
        }
        return;
      }
      const field = stack.slice(documentDepth);
      if (field.length === 2 && name === 'ЗначениеРеквизита') requisite = { name: '', value: '' };
      else if (field.length === 2 && field[0] === 'Товары' && name === 'Товар') line = newLine();
    },

    close(stack, text) {
      if (!document) return;
      const field = stack.slice(documentDepth);
      const name = stack.at(-1);
      if (field.length === 0) {
        if (!document.id) fail('у документа нет Ид');
        emit(document);
        document = null;
        return;
      }
      const [first] = field;
      if (field.length === 1) {
        if (name === 'Ид') document.id = text;
        else if (name === 'Номер') document.number = text;
        else if (name === 'Дата') document.date = text;
        else if (name === 'Сумма') document.sum = number(text, 'Сумма');
      } else if (first === 'ЗначенияРеквизитов') {
        if (field.length === 3 && name === 'Наименование') requisite.name = text;
        else if (field.length === 3 && name === 'Значение') requisite.value = text;
        else if (field.length === 2 && requisite.name) document.requisites.push(requisite);
      } else if (first === 'Товары') {
        if (field.length === 2) document.lines.push(line);
        else if (field.length === 3) {
          if (name === 'Ид') line.id = text;
          else if (name === 'Артикул') line.article = text;
          else if (name === 'Наименование') line.name = text;
          else if (name === 'ЦенаЗаЕдиницу') line.price = number(text, name) ?? 0;
          else if (name === 'Количество') line.quantity = number(text, name) ?? 0;
          else if (name === 'Сумма') line.sum = number(text, name) ?? 0;
        }
      }
    },
  };
}

/** The Документ records of an orders file from 1С, in the file's order, in batches. */
export function readOrdersFile(path: string, fileName: string): AsyncIterable<OrderDocumentRecord[]> {
  return readCommerceMl(path, fileName, ordersHandler);
}
