import { readFile } from 'node:fs/promises';
import { validateXML } from 'xmllint-wasm';
import { commerceMlFixture } from '../../../test/server/helpers/commerceml';
import type { OrderForExchange } from './records';
import { writeOrdersDocument } from './write-orders';

// xmllint compiled to WebAssembly starts in a second or so, longer on a busy machine.
jest.setTimeout(30_000);

/** Whether `xml` is valid against our subset of the CommerceML 2.10 schema; xmllint's errors if not. */
async function validate(xml: string) {
  const schema = await readFile(commerceMlFixture('orders-2.10-subset.xsd'), 'utf8');
  const result = await validateXML({
    xml: [{ fileName: 'orders.xml', contents: xml }],
    schema: [{ fileName: 'orders-2.10-subset.xsd', contents: schema }],
  });
  return { valid: result.valid, errors: result.errors.map(({ rawMessage }) => rawMessage) };
}

// 21:30 UTC on the 26th is 00:30 on the 27th in Moscow.
const PLACED = new Date('2026-11-26T21:30:15Z');
const GENERATED = new Date('2026-11-28T08:05:09Z');

const order = (overrides: Partial<OrderForExchange> = {}): OrderForExchange => ({
  id: 1043,
  number: '1043',
  createdAt: PLACED,
  status: 'Ожидает оплаты',
  paid: false,
  cancelled: false,
  total: 10_800,
  comment: 'Позвонить перед доставкой',
  deliveryAddress: 'г. Самара, ул. Ленинградская, д. 12, склад 3',
  contact: { name: 'Ольга Смирнова', phone: '+7 927 123-45-67', email: 'olga@igrushki-povolzhya.ru' },
  legalEntity: {
    id: '6f1c2e7a-4b3d-4c8e-9a51-2d7f0b8e3c41',
    name: 'ООО "Игрушки Поволжья"',
    fullName: 'Общество с ограниченной ответственностью "Игрушки Поволжья"',
    inn: '6312045678',
    kpp: '631201001',
    address: '443001, г. Самара, ул. Ленинградская, д. 12',
  },
  companyName: 'Игрушки Поволжья',
  lines: [
    {
      externalId: 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3',
      article: 'MO-2001',
      name: 'Мишка Тедди 30 см',
      price: 450,
      quantity: 24,
      sum: 10_800,
    },
  ],
  ...overrides,
});

describe('writeOrdersDocument', () => {
  test('an order is a Документ «Заказ товара» in CommerceML 2.10’s order, valid against the schema', async () => {
    const xml = writeOrdersDocument([order()], GENERATED);
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация')).toBe(true);
    expect(xml).toContain('ВерсияСхемы="2.10" ДатаФормирования="2026-11-28T11:05:09"');
    expect(xml).toContain(
      '<Документ><Ид>1043</Ид><Номер>1043</Номер><Дата>2026-11-27</Дата><ХозОперация>Заказ товара</ХозОперация><Роль>Продавец</Роль><Валюта>RUB</Валюта><Курс>1</Курс><Сумма>10800.00</Сумма>',
    );
    // An organisation (10-digit ИНН): the legal entity's requisites, its UUID as Ид.
    expect(xml).toContain(
      '<Контрагент><Ид>6f1c2e7a-4b3d-4c8e-9a51-2d7f0b8e3c41</Ид><Наименование>ООО &quot;Игрушки Поволжья&quot;</Наименование><ОфициальноеНаименование>Общество с ограниченной ответственностью &quot;Игрушки Поволжья&quot;</ОфициальноеНаименование><ЮридическийАдрес><Представление>443001, г. Самара, ул. Ленинградская, д. 12</Представление></ЮридическийАдрес><ИНН>6312045678</ИНН><КПП>631201001</КПП>',
    );
    expect(xml).toContain(
      '<Контакты><Контакт><Тип>Почта</Тип><Значение>olga@igrushki-povolzhya.ru</Значение></Контакт><Контакт><Тип>Телефон рабочий</Тип><Значение>+7 927 123-45-67</Значение></Контакт></Контакты>',
    );
    expect(xml).toContain(
      '<Отношение>Контактное лицо</Отношение></Представитель></Представители><Роль>Покупатель</Роль>',
    );
    expect(xml).toContain('<Время>00:30:15</Время><Комментарий>Позвонить перед доставкой</Комментарий>');
    expect(xml).toContain(
      '<Товар><Ид>d1a5e6f0-9c20-11ee-8c2a-005056b6f1a3#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3</Ид><Артикул>MO-2001</Артикул><Наименование>Мишка Тедди 30 см</Наименование><БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница><ЗначенияРеквизитов><ЗначениеРеквизита><Наименование>ВидНоменклатуры</Наименование><Значение>Товар</Значение></ЗначениеРеквизита><ЗначениеРеквизита><Наименование>ТипНоменклатуры</Наименование><Значение>Товар</Значение></ЗначениеРеквизита></ЗначенияРеквизитов><ЦенаЗаЕдиницу>450.00</ЦенаЗаЕдиницу><Количество>24</Количество><Сумма>10800.00</Сумма></Товар>',
    );
    expect(xml).toContain(
      '<ЗначенияРеквизитов><ЗначениеРеквизита><Наименование>Статус заказа</Наименование><Значение>Ожидает оплаты</Значение></ЗначениеРеквизита><ЗначениеРеквизита><Наименование>Заказ оплачен</Наименование><Значение>false</Значение></ЗначениеРеквизита><ЗначениеРеквизита><Наименование>Отменен</Наименование><Значение>false</Значение></ЗначениеРеквизита><ЗначениеРеквизита><Наименование>Адрес доставки</Наименование><Значение>г. Самара, ул. Ленинградская, д. 12, склад 3</Значение></ЗначениеРеквизита></ЗначенияРеквизитов></Документ>',
    );
  });

  test('names with < & " are escaped, characters XML cannot carry dropped, and the document stays valid', async () => {
    const xml = writeOrdersDocument(
      [
        order({
          comment: 'Коробки <большие> & "крепкие"\u0007',
          legalEntity: { ...order().legalEntity!, name: 'ООО "Мишки & <Зайки>"' },
          lines: [
            {
              externalId: null,
              article: 'A&B<1>',
              name: 'Мишка "Тедди" <30> & бант',
              price: 99.5,
              quantity: 3,
              sum: 298.5,
            },
          ],
        }),
      ],
      GENERATED,
    );
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<Наименование>ООО &quot;Мишки &amp; &lt;Зайки&gt;&quot;</Наименование>');
    expect(xml).toContain('<Комментарий>Коробки &lt;большие&gt; &amp; &quot;крепкие&quot;</Комментарий>');
    // No 1С Ид for a product made on the site: the article is what 1С matches.
    expect(xml).toContain(
      '<Товар><Артикул>A&amp;B&lt;1&gt;</Артикул><Наименование>Мишка &quot;Тедди&quot; &lt;30&gt; &amp; бант</Наименование>',
    );
    expect(xml).toContain('<ЦенаЗаЕдиницу>99.50</ЦенаЗаЕдиницу><Количество>3</Количество><Сумма>298.50</Сумма>');
  });

  test('an entrepreneur, and an order without a legal entity, are written as persons; paid and cancelled say true', async () => {
    const xml = writeOrdersDocument(
      [
        order({
          id: 1044,
          number: '1044',
          paid: true,
          legalEntity: {
            id: '0a9d8c7b-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
            name: 'ИП Сергеева А. В.',
            fullName: 'Индивидуальный предприниматель Сергеева Анна Викторовна',
            inn: '502712345678',
            kpp: null,
            address: null,
          },
        }),
        order({
          id: 1045,
          number: '1045',
          cancelled: true,
          comment: null,
          legalEntity: null,
          contact: { name: null, phone: null, email: null },
        }),
      ],
      GENERATED,
    );
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(
      '<Контрагент><Ид>0a9d8c7b-6e5f-4a3b-8c2d-1e0f9a8b7c6d</Ид><Наименование>ИП Сергеева А. В.</Наименование><ПолноеНаименование>Индивидуальный предприниматель Сергеева Анна Викторовна</ПолноеНаименование><ИНН>502712345678</ИНН><Контакты>',
    );
    expect(xml).toContain(
      '<Контрагент><Наименование>Игрушки Поволжья</Наименование><ПолноеНаименование>Игрушки Поволжья</ПолноеНаименование><Роль>Покупатель</Роль></Контрагент>',
    );
    expect(xml).toContain('<Наименование>Заказ оплачен</Наименование><Значение>true</Значение>');
    expect(xml).toContain('<Наименование>Отменен</Наименование><Значение>true</Значение>');
  });

  test('no orders: a valid document with no Документ', async () => {
    const xml = writeOrdersDocument([], GENERATED);
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).not.toContain('<Документ>');
  });

  test('the schema does refuse what the standard refuses (an element out of its order)', async () => {
    const xml = writeOrdersDocument([order()], GENERATED).replace(
      '<Курс>1</Курс><Сумма>10800.00</Сумма>',
      '<Сумма>10800.00</Сумма><Курс>1</Курс>',
    );
    expect((await validate(xml)).valid).toBe(false);
  });
});
