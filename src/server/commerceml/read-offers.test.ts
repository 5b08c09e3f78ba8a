import { allRecords, commerceMl, commerceMlFixture, temporaryFolder } from '../../../test/server/helpers/commerceml';
import { readOffersFile } from './read-offers';
import { CommerceMlError, type OfferRecord, type OffersRecord } from './records';

const readOffers = (name: string) => allRecords(readOffersFile(commerceMlFixture(name), name));

const TEDDY = 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3';
const HARE = 'd1a5e6f1-9c20-11ee-8c2a-005056b6f1a3';
const PILLOW = 'd1a5e6f2-9c20-11ee-8c2a-005056b6f1a3';
const WHOLESALE = 'c2d4f6a8-9c23-11ee-8c2a-005056b6f1a3';
const RETAIL = 'c2d4f6a9-9c23-11ee-8c2a-005056b6f1a3';
const PURCHASE = 'c2d4f6aa-9c23-11ee-8c2a-005056b6f1a3';
const MAIN_WAREHOUSE = 'f0e1d2c3-9c24-11ee-8c2a-005056b6f1a3';
const PODOLSK = 'f0e1d2c4-9c24-11ee-8c2a-005056b6f1a3';
const PACKAGE_ID = '7c5e1a2b-3f4d-11ee-9a1b-005056a1c2d3#';

const offer = (overrides: Partial<OfferRecord>): OfferRecord => ({
  kind: 'offer',
  id: '',
  productId: '',
  characteristicId: null,
  article: '',
  name: '',
  barcode: '',
  characteristics: [],
  prices: null,
  quantity: null,
  warehouses: [],
  unitCoefficient: null,
  deleted: false,
  ...overrides,
});
const price = (priceTypeId: string, unitPrice: number, coefficient = 1) => ({
  priceTypeId,
  unitPrice,
  currency: 'RUB',
  coefficient,
});
const toy = (color: string, height: string) => [
  { name: 'Цвет игрушки', value: color },
  { name: 'Рост, см', value: height },
];

describe('readOffersFile', () => {
  test('offers.xml: the header, three price types, two warehouses and every offer with its prices and stock', async () => {
    expect(await readOffers('offers.xml')).toEqual<OffersRecord[]>([
      { kind: 'offers', id: PACKAGE_ID, changesOnly: false },
      { kind: 'price-type', id: WHOLESALE, name: 'Оптовая', currency: 'RUB', taxIncluded: true },
      { kind: 'price-type', id: RETAIL, name: 'Розничная', currency: 'RUB', taxIncluded: true },
      { kind: 'price-type', id: PURCHASE, name: 'Закупочная', currency: 'RUB', taxIncluded: null },
      { kind: 'warehouse', id: MAIN_WAREHOUSE, name: 'Основной склад' },
      { kind: 'warehouse', id: PODOLSK, name: 'Склад Подольск' },
      offer({
        id: `${TEDDY}#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3`,
        productId: TEDDY,
        characteristicId: 'e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3',
        article: 'MO-2001',
        name: 'Мишка Тедди 30 см (Бежевый, 30)',
        barcode: '4601234567893',
        characteristics: toy('Бежевый', '30'),
        prices: [price(WHOLESALE, 450), price(RETAIL, 690), price(PURCHASE, 300)],
        quantity: 12,
        // 2.10: Остатки/Остаток/Склад.
        warehouses: [
          { warehouseId: MAIN_WAREHOUSE, quantity: 8 },
          { warehouseId: PODOLSK, quantity: 4 },
        ],
      }),
      offer({
        id: `${TEDDY}#e4b1c7d1-9c21-11ee-8c2a-005056b6f1a3`,
        productId: TEDDY,
        characteristicId: 'e4b1c7d1-9c21-11ee-8c2a-005056b6f1a3',
        article: 'MO-2001',
        name: 'Мишка Тедди 30 см (Коричневый, 30)',
        barcode: '4601234567909',
        characteristics: toy('Коричневый', '30'),
        prices: [price(WHOLESALE, 450), price(RETAIL, 690)],
        quantity: 5,
        // 2.08: <Склад ИдСклада КоличествоНаСкладе/>.
        warehouses: [
          { warehouseId: MAIN_WAREHOUSE, quantity: 5 },
          { warehouseId: PODOLSK, quantity: 0 },
        ],
      }),
      offer({
        id: `${HARE}#e4b1c7d2-9c21-11ee-8c2a-005056b6f1a3`,
        productId: HARE,
        characteristicId: 'e4b1c7d2-9c21-11ee-8c2a-005056b6f1a3',
        article: 'MO-2002',
        name: 'Зайка Ушастик (Белый, 25)',
        characteristics: toy('Белый', '25'),
        // «3075,00» with a decimal comma, for a carton of 6.
        prices: [price(WHOLESALE, 3075, 6)],
        quantity: 36,
        unitCoefficient: 6,
      }),
      offer({
        id: PILLOW,
        productId: PILLOW,
        name: 'Подушка-облако',
        // No Валюта on the price: its type's.
        prices: [price(WHOLESALE, 1200)],
        quantity: 0,
      }),
    ]);
  });

  test('offers_changes.xml says it holds changes only; prices with spaces between thousands are read', async () => {
    const records = await readOffers('offers_changes.xml');
    expect(records[0]).toEqual({ kind: 'offers', id: PACKAGE_ID, changesOnly: true });
    const offers = records.filter((record) => record.kind === 'offer');
    expect(offers.map(({ id, prices, quantity }) => ({ id, prices, quantity }))).toEqual([
      { id: `${TEDDY}#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3`, prices: [price(WHOLESALE, 470.5)], quantity: 10 },
      { id: `${HARE}#e4b1c7d2-9c21-11ee-8c2a-005056b6f1a3`, prices: [price(WHOLESALE, 3150, 6)], quantity: 30 },
    ]);
  });

  test('prices_1.xml: the price types of its Классификатор, prices with no quantity (null)', async () => {
    expect(await readOffers('prices_1.xml')).toEqual<OffersRecord[]>([
      { kind: 'price-type', id: WHOLESALE, name: 'Оптовая', currency: 'RUB', taxIncluded: false },
      { kind: 'price-type', id: RETAIL, name: 'Розничная', currency: 'RUB', taxIncluded: null },
      { kind: 'offers', id: PACKAGE_ID, changesOnly: false },
      offer({
        id: `${TEDDY}#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3`,
        productId: TEDDY,
        characteristicId: 'e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3',
        prices: [price(WHOLESALE, 455), price(RETAIL, 699)],
      }),
      offer({ id: PILLOW, productId: PILLOW, prices: [price(WHOLESALE, 1250)] }),
    ]);
  });

  test('rests_1.xml: stock per warehouse (their sum the quantity) or without one, and no prices (null)', async () => {
    expect(await readOffers('rests_1.xml')).toEqual<OffersRecord[]>([
      { kind: 'offers', id: PACKAGE_ID, changesOnly: false },
      { kind: 'warehouse', id: MAIN_WAREHOUSE, name: 'Основной склад' },
      { kind: 'warehouse', id: PODOLSK, name: 'Склад Подольск' },
      offer({
        id: `${TEDDY}#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3`,
        productId: TEDDY,
        characteristicId: 'e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3',
        quantity: 10,
        warehouses: [
          { warehouseId: MAIN_WAREHOUSE, quantity: 7 },
          { warehouseId: PODOLSK, quantity: 3 },
        ],
      }),
      offer({ id: PILLOW, productId: PILLOW, quantity: 15 }),
    ]);
  });

  test('an offer marked for deletion, and a price that is not a number (refused at its line)', async () => {
    const temporary = await temporaryFolder();
    try {
      const deleted = await temporary.file(
        'offers.xml',
        commerceMl(
          '<ПакетПредложений><Ид>p</Ид><Предложения><Предложение><Ид>a#</Ид><ПометкаУдаления>true</ПометкаУдаления></Предложение></Предложения></ПакетПредложений>',
        ),
      );
      expect(await allRecords(readOffersFile(deleted, 'offers.xml'))).toEqual([
        { kind: 'offers', id: 'p', changesOnly: false },
        offer({ id: 'a#', productId: 'a', deleted: true }),
      ]);
      const wrong = await temporary.file(
        'prices.xml',
        commerceMl(
          '<ПакетПредложений><Ид>p</Ид><Предложения>\n<Предложение><Ид>a</Ид><Цены><Цена><ИдТипаЦены>t</ИдТипаЦены>\n<ЦенаЗаЕдиницу>много</ЦенаЗаЕдиницу></Цена></Цены></Предложение></Предложения></ПакетПредложений>',
        ),
      );
      const error = await allRecords(readOffersFile(wrong, 'prices.xml')).catch((e) => e);
      expect(error).toBeInstanceOf(CommerceMlError);
      expect(error).toMatchObject({ file: 'prices.xml', line: 5, reason: 'в «ЦенаЗаЕдиницу» не число: «много»' });
    } finally {
      await temporary.remove();
    }
  });
});
