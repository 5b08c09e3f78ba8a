import type { NamedValue, OfferPrice, OfferRecord, OffersHeader, OffersRecord, PriceTypeRecord } from './records';
import { endsWith, isTrue, parseDecimal, readCommerceMl, type ElementHandler, type ReaderContext } from './xml-reader';

/**
 * offers.xml and the split files newer 1С sends (prices*.xml: Цены only, rests*.xml: Остатки
 * only): the ПакетПредложений's header, its ТипыЦен and Склады (also when 1С puts them in the
 * Классификатор), and every Предложение.
 */

const newOffer = (): OfferRecord => ({
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
});

function offersHandler({ emit, fail }: ReaderContext<OffersRecord>): ElementHandler {
  const number = (text: string, element: string) => parseDecimal(text, element, fail);
  /** Each ТипЦены's currency: a Цена without its own Валюта is in its type's. */
  const currencies = new Map<string, string>();

  let header: OffersHeader | null = null;
  const emitHeader = () => {
    if (!header) return;
    emit(header);
    header = null;
  };

  let priceType: PriceTypeRecord | null = null;
  let warehouse = { id: '', name: '' };
  let inWarehouse = false;

  let offer: OfferRecord | null = null;
  let offerDepth = 0;
  let pair: NamedValue = { name: '', value: '' };
  let price: OfferPrice = { priceTypeId: '', unitPrice: 0, currency: '', coefficient: 1 };
  let hasUnitPrice = false;
  /** A 2.10 Остаток: its Склад's Ид and Количество, or a Количество of its own (no warehouse). */
  let rest = { warehouseId: '', quantity: null as number | null };

  return {
    open(stack, attributes) {
      const name = stack.at(-1);
      if (stack.length === 2 && name === 'ПакетПредложений') {
        header = { kind: 'offers', id: '', changesOnly: isTrue(attributes['СодержитТолькоИзменения'] ?? '') };
        return;
      }
      if (stack.length === 3 && (name === 'ТипыЦен' || name === 'Склады' || name === 'Предложения')) emitHeader();
      if (offer) {
        const field = stack.slice(offerDepth);
        if (field.length === 2 && name === 'ХарактеристикаТовара') pair = { name: '', value: '' };
        else if (field.length === 1 && name === 'Цены') offer.prices ??= [];
        else if (field.length === 2 && name === 'Цена') {
          price = { priceTypeId: '', unitPrice: 0, currency: '', coefficient: 1 };
          hasUnitPrice = false;
        } else if (field.length === 1 && name === 'Склад' && attributes['ИдСклада']) {
          // 2.08: <Склад ИдСклада="…" КоличествоНаСкладе="5"/>
          const quantity = number(attributes['КоличествоНаСкладе'] ?? '', 'КоличествоНаСкладе') ?? 0;
          offer.warehouses.push({ warehouseId: attributes['ИдСклада'], quantity });
        } else if (field.length === 2 && name === 'Остаток') rest = { warehouseId: '', quantity: null };
        return;
      }
      if (name === 'Предложение' && endsWith(stack, 'Предложения', 'Предложение')) {
        offer = newOffer();
        offerDepth = stack.length;
        if (attributes['Статус'] === 'Удален') offer.deleted = true;
      } else if (name === 'ТипЦены' && endsWith(stack, 'ТипыЦен', 'ТипЦены')) {
        priceType = { kind: 'price-type', id: '', name: '', currency: '', taxIncluded: null };
      } else if (name === 'Склад' && endsWith(stack, 'Склады', 'Склад')) {
        warehouse = { id: '', name: '' };
        inWarehouse = true;
      }
    },

    close(stack, text) {
      const name = stack.at(-1);
      if (stack.length === 2 && name === 'ПакетПредложений') {
        emitHeader();
        return;
      }
      if (header && stack.length === 3) {
        if (name === 'Ид') header.id = text;
        else if (name === 'СодержитТолькоИзменения') header.changesOnly = isTrue(text);
        return;
      }
      if (priceType) {
        if (name === 'ТипЦены') {
          if (!priceType.id) fail('у типа цен нет Ид');
          currencies.set(priceType.id, priceType.currency);
          emit(priceType);
          priceType = null;
        } else if (endsWith(stack, 'ТипЦены', 'Ид')) priceType.id = text;
        else if (endsWith(stack, 'ТипЦены', 'Наименование')) priceType.name = text;
        else if (endsWith(stack, 'ТипЦены', 'Валюта')) priceType.currency = text;
        else if (endsWith(stack, 'Налог', 'УчтеноВСумме')) priceType.taxIncluded = isTrue(text);
        return;
      }
      if (inWarehouse) {
        if (name === 'Склад' && endsWith(stack, 'Склады', 'Склад')) {
          if (!warehouse.id) fail('у склада нет Ид');
          emit({ kind: 'warehouse', ...warehouse });
          inWarehouse = false;
        } else if (endsWith(stack, 'Склад', 'Ид')) warehouse.id = text;
        else if (endsWith(stack, 'Склад', 'Наименование')) warehouse.name = text;
        return;
      }
      if (!offer) return;
      const field = stack.slice(offerDepth);
      if (field.length === 0) {
        if (!offer.id) fail('у предложения нет Ид');
        const hash = offer.id.indexOf('#');
        offer.productId = hash === -1 ? offer.id : offer.id.slice(0, hash);
        offer.characteristicId = hash === -1 ? null : offer.id.slice(hash + 1) || null;
        // A 2.10 rests file gives the quantities per warehouse only: their sum is the offer's.
        if (offer.quantity === null && offer.warehouses.length > 0)
          offer.quantity = offer.warehouses.reduce((sum, { quantity }) => sum + quantity, 0);
        emit(offer);
        offer = null;
        return;
      }
      const [first] = field;
      if (field.length === 1) {
        if (name === 'Ид') offer.id = text;
        else if (name === 'Артикул') offer.article = text;
        else if (name === 'Наименование') offer.name = text;
        else if (name === 'Штрихкод') offer.barcode = text;
        else if (name === 'Количество') offer.quantity = number(text, 'Количество');
        else if (name === 'ПометкаУдаления') offer.deleted ||= isTrue(text);
      } else if (first === 'ХарактеристикиТовара') {
        if (field.length === 3 && name === 'Наименование') pair.name = text;
        else if (field.length === 3 && name === 'Значение') pair.value = text;
        else if (field.length === 2 && pair.name) offer.characteristics.push(pair);
      } else if (first === 'Цены' && offer.prices) {
        if (field.length === 3 && name === 'ИдТипаЦены') price.priceTypeId = text;
        else if (field.length === 3 && name === 'ЦенаЗаЕдиницу') {
          const unitPrice = number(text, 'ЦенаЗаЕдиницу');
          if (unitPrice !== null) {
            price.unitPrice = unitPrice;
            hasUnitPrice = true;
          }
        } else if (field.length === 3 && name === 'Валюта') price.currency = text;
        else if (field.length === 3 && name === 'Коэффициент') price.coefficient = number(text, 'Коэффициент') ?? 1;
        else if (field.length === 2 && name === 'Цена') {
          if (!price.priceTypeId) fail('у цены нет ИдТипаЦены');
          if (!hasUnitPrice) fail('у цены нет ЦенаЗаЕдиницу');
          price.currency ||= currencies.get(price.priceTypeId) ?? '';
          offer.prices.push(price);
        }
      } else if (first === 'Остатки') {
        if (endsWith(stack, 'Остаток', 'Склад', 'Ид')) rest.warehouseId = text;
        else if (endsWith(stack, 'Остаток', 'Склад', 'Количество')) rest.quantity = number(text, 'Количество');
        else if (endsWith(stack, 'Остаток', 'Количество')) offer.quantity = number(text, 'Количество');
        else if (field.length === 2 && name === 'Остаток' && rest.warehouseId)
          offer.warehouses.push({ warehouseId: rest.warehouseId, quantity: rest.quantity ?? 0 });
      } else if (first === 'БазоваяЕдиница' && endsWith(stack, 'Пересчет', 'Коэффициент')) {
        const coefficient = number(text, 'Коэффициент');
        if (coefficient !== null && coefficient > 1) offer.unitCoefficient = coefficient;
      }
    },
  };
}

/** The records of an offers.xml, prices*.xml or rests*.xml, in the file's order, in batches. */
export function readOffersFile(path: string, fileName: string): AsyncIterable<OffersRecord[]> {
  return readCommerceMl(path, fileName, offersHandler);
}
