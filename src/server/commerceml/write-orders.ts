import { moscowClock, moscowDay } from '../../shared/dates';
import { rublesToDecimal } from '../../shared/money';
import type { OrderForExchange } from './records';

/**
 * The orders document the shop answers 1С's `type=sale&mode=query` with: CommerceML 2.10, a
 * Документ «Заказ товара» per order, its elements in the standard's order (1С УТ 11 reads it
 * through XDTO, which follows the schema). test/fixtures/commerceml/orders-2.10-subset.xsd is the
 * part of the standard's schema this writes, and the tests validate against it.
 */

const NAMESPACE = 'urn:1C.ru:commerceml_2';

/**
 * The standard's lengths (НаименованиеТип 255, ЗначениеТип 1000, КомментарийТип 3000): a longer
 * value would make the whole document invalid for 1С, so it is cut.
 */
const NAME_MAX = 255;
const VALUE_MAX = 1000;
const COMMENT_MAX = 3000;

/** Whether XML 1.0 can carry the character at all (control characters pasted into a comment cannot). */
const isXmlCharacter = (character: string) => {
  const code = character.codePointAt(0) ?? 0;
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
};

const escapeXml = (value: string) =>
  Array.from(value)
    .filter(isXmlCharacter)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

const cut = (value: string, max: number) => Array.from(value).slice(0, max).join('');

/** `<name>text</name>`, escaped and cut to the standard's length; nothing for a null or blank value. */
function element(name: string, value: string | null | undefined, max = NAME_MAX): string {
  const text = value?.trim();
  return text ? `<${name}>${escapeXml(cut(text, max))}</${name}>` : '';
}

const requisite = (name: string, value: string) =>
  `<ЗначениеРеквизита><Наименование>${escapeXml(name)}</Наименование>${element('Значение', value, VALUE_MAX) || '<Значение></Значение>'}</ЗначениеРеквизита>`;

/** 1С's booleans in ЗначенияРеквизитов. */
const flag = (value: boolean) => (value ? 'true' : 'false');

/** A quantity: whole pieces, written without a fraction. */
const quantity = (value: number) => String(value);

/** ДатаФормирования: xsd:dateTime in Moscow's wall clock, without a zone, as 1С writes its own. */
const moscowDateTime = (instant: Date) => `${moscowDay(instant)}T${moscowClock(instant)}`;

/** ИНН and КПП go only when they have the standard's lengths (10 or 12 digits, 9 characters). */
const validInn = (inn: string | null | undefined) => (inn && /^(\d{10}|\d{12})$/.test(inn) ? inn : null);
const validKpp = (kpp: string | null | undefined) => (kpp && /^[0-9A-Z]{9}$/.test(kpp) ? kpp : null);

function contacts({ contact }: OrderForExchange): string {
  const items = [
    contact.email ? ['Почта', contact.email] : null,
    contact.phone ? ['Телефон рабочий', contact.phone] : null,
  ].filter((item) => item !== null);
  if (items.length === 0) return '';
  return `<Контакты>${items
    .map(([type, value]) => `<Контакт><Тип>${type}</Тип>${element('Значение', value)}</Контакт>`)
    .join('')}</Контакты>`;
}

/** The buyer's contact person, as a Представитель «Контактное лицо» (a person: ПолноеНаименование). */
function representatives({ contact }: OrderForExchange): string {
  if (!contact.name?.trim()) return '';
  return `<Представители><Представитель>${element('Наименование', contact.name)}${element('ПолноеНаименование', contact.name)}<Отношение>Контактное лицо</Отношение></Представитель></Представители>`;
}

/**
 * The buyer. An organisation (a 10-digit ИНН) is written with the standard's legal-entity
 * requisites (ОфициальноеНаименование, ЮридическийАдрес), which is how 1С tells an organisation
 * from a person; an entrepreneur (12 digits) or an order without a legal entity with the person's
 * (ПолноеНаименование, АдресРегистрации).
 */
function counterparty(order: OrderForExchange): string {
  const entity = order.legalEntity;
  const inn = validInn(entity?.inn);
  const kpp = validKpp(entity?.kpp);
  const name = entity?.name || order.companyName;
  const fullName = entity?.fullName || name;
  const address = entity?.address?.trim()
    ? `<Представление>${escapeXml(cut(entity.address.trim(), NAME_MAX))}</Представление>`
    : '';
  const requisites =
    inn?.length === 10
      ? `${element('ОфициальноеНаименование', fullName)}${address && `<ЮридическийАдрес>${address}</ЮридическийАдрес>`}${element('ИНН', inn)}${element('КПП', kpp)}`
      : `${element('ПолноеНаименование', fullName)}${element('ИНН', inn)}${element('КПП', kpp)}${address && `<АдресРегистрации>${address}</АдресРегистрации>`}`;
  return `<Контрагенты><Контрагент>${element('Ид', entity?.id)}${element('Наименование', name)}${requisites}${contacts(order)}${representatives(order)}<Роль>Покупатель</Роль></Контрагент></Контрагенты>`;
}

function line(item: OrderForExchange['lines'][number]): string {
  return [
    '<Товар>',
    element('Ид', item.externalId, 80),
    element('Артикул', item.article),
    element('Наименование', item.name) || '<Наименование></Наименование>',
    '<БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>',
    '<ЗначенияРеквизитов>',
    requisite('ВидНоменклатуры', 'Товар'),
    requisite('ТипНоменклатуры', 'Товар'),
    '</ЗначенияРеквизитов>',
    `<ЦенаЗаЕдиницу>${rublesToDecimal(item.price)}</ЦенаЗаЕдиницу>`,
    `<Количество>${quantity(item.quantity)}</Количество>`,
    `<Сумма>${rublesToDecimal(item.sum)}</Сумма>`,
    '</Товар>',
  ].join('');
}

function orderDocument(order: OrderForExchange): string {
  return [
    '<Документ>',
    `<Ид>${order.id}</Ид>`,
    element('Номер', order.number),
    `<Дата>${moscowDay(order.createdAt)}</Дата>`,
    '<ХозОперация>Заказ товара</ХозОперация>',
    '<Роль>Продавец</Роль>',
    // ISO 4217, as the standard says; in 1С УТ 11 the ruble's name is «RUB» too.
    '<Валюта>RUB</Валюта>',
    '<Курс>1</Курс>',
    `<Сумма>${rublesToDecimal(order.total)}</Сумма>`,
    counterparty(order),
    `<Время>${moscowClock(order.createdAt)}</Время>`,
    element('Комментарий', order.comment, COMMENT_MAX),
    order.lines.length > 0 ? `<Товары>${order.lines.map(line).join('')}</Товары>` : '',
    '<ЗначенияРеквизитов>',
    requisite('Статус заказа', order.status),
    requisite('Заказ оплачен', flag(order.paid)),
    requisite('Отменен', flag(order.cancelled)),
    requisite('Адрес доставки', order.deliveryAddress),
    '</ЗначенияРеквизитов>',
    '</Документ>',
  ].join('');
}

/** The CommerceML 2.10 document of `orders` (none: a valid empty one), as UTF-8 text. */
export function writeOrdersDocument(orders: OrderForExchange[], generatedAt: Date): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<КоммерческаяИнформация xmlns="${NAMESPACE}" ВерсияСхемы="2.10" ДатаФормирования="${moscowDateTime(generatedAt)}">`,
    ...orders.map(orderDocument),
    '</КоммерческаяИнформация>\n',
  ].join('');
}
