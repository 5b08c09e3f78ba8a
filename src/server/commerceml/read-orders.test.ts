import { allRecords, commerceMlFixture } from '../../../test/server/helpers/commerceml';
import { readOrdersFile } from './read-orders';
import type { OrderDocumentRecord } from './records';

describe('readOrdersFile', () => {
  test('orders_from_1c.xml: each Документ with its requisites and its lines as 1С has them, not its subordinate documents', async () => {
    const records = await allRecords(readOrdersFile(commerceMlFixture('orders_from_1c.xml'), 'orders_from_1c.xml'));
    expect(records).toEqual<OrderDocumentRecord[]>([
      {
        kind: 'order',
        id: '1043',
        number: '1043',
        date: '2026-11-26',
        sum: 8100,
        requisites: [
          { name: 'Номер по 1С', value: 'МО00-000317' },
          { name: 'Дата по 1С', value: '2026-11-26T15:31:02' },
          { name: 'Проведен', value: 'true' },
          { name: 'ПометкаУдаления', value: 'false' },
          { name: 'Дата оплаты по 1С', value: '2026-11-27T10:05:00' },
          { name: 'Дата отгрузки по 1С', value: '2026-11-28T09:40:00' },
          { name: 'Статус заказа', value: '[N] Принят' },
        ],
        // Shipped 18 of the 24 ordered.
        lines: [
          {
            id: 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3',
            article: 'MO-2001',
            name: 'Мишка Тедди 30 см (Бежевый, 30)',
            price: 450,
            quantity: 18,
            sum: 8100,
          },
        ],
      },
      {
        kind: 'order',
        id: '1044',
        number: '1044',
        date: '2026-11-27',
        sum: 2400,
        requisites: [
          { name: 'Проведен', value: 'false' },
          { name: 'ПометкаУдаления', value: 'true' },
          // An empty date, as 1С writes it.
          { name: 'Дата оплаты по 1С', value: 'T' },
          { name: 'Дата отгрузки по 1С', value: 'T' },
          { name: 'Статус заказа', value: '[F] Отменен' },
        ],
        lines: [
          {
            id: 'd1a5e6f2-9c20-11ee-8c2a-005056b6f1a3',
            article: '',
            name: 'Подушка-облако',
            price: 1200,
            quantity: 2,
            sum: 2400,
          },
        ],
      },
    ]);
  });
});
