// The messages an order sends: placed (to the buyer and to the managers), invoiced, and each later
// change of its status.
import type { ManagerContact, Tracking } from '../../shared/api';
import type { OrderStatus } from '../../shared/order-statuses';
import { formatMoscowDateTimeWithZone } from '../../shared/dates';
import { decimalToKopecks, formatKopecks, formatRubles } from '../../shared/money';
import { orderPath, PAGE_PATHS } from '../../shared/paths';
import { pluralForm } from '../../shared/plurals';
import { invoiceTitle } from '../invoices/invoicePdf';
import { ORDER_LINE_COLUMNS } from '../../shared/cart-import';
import { letter, oneLine, type Block, type Letter, type ShopMail } from './letter';

/**
 * How many lines a letter lists; the rest are «и ещё N позиций» with the link, and every line is in
 * the attached spreadsheet. 30 lines keep the HTML near 25 KB, well under the 102 KB after which
 * Gmail clips a message («[Сообщение обрезано]») and hides its end: the total, the button, the contacts.
 */
export const LINES_IN_LETTER = 30;

export interface OrderForLetter {
  id: number;
  createdAt: Date;
  totalPrice: string;
  buyerEmail: string;
  contactName: string | null;
  contactPhone: string | null;
  address: string;
  companyName: string | null;
  companyInn: string | null;
  companyKpp: string | null;
  lines: { art: string; name: string; color: string; size: number; price: string; quantity: number }[];
  /** Who placed it (the name as the order keeps it), for the managers' notice. */
  placedByName?: string | null;
  /** The buyer's company's personal manager, named in the buyer's letters. */
  manager?: ManagerContact | null;
}

function linesTable(shop: ShopMail, order: OrderForLetter, path: string): Block {
  const rest = order.lines.length - LINES_IN_LETTER;
  return {
    lines: {
      head: ORDER_LINE_COLUMNS,
      rows: order.lines.slice(0, LINES_IN_LETTER).map((line) => ({
        art: line.art,
        name: line.name,
        color: line.color,
        size: `${line.size} см`,
        price: formatRubles(Number(line.price)),
        quantity: String(line.quantity),
        sum: formatKopecks(decimalToKopecks(line.price) * line.quantity),
      })),
      more: rest > 0 ? { count: rest, href: new URL(path, shop.shopUrl).toString() } : null,
      total: formatRubles(Number(order.totalPrice)),
    },
  };
}

function requisites(order: OrderForLetter): Block {
  return {
    facts: [
      ['Организация', oneLine(order.companyName)],
      ['ИНН', oneLine(order.companyInn)],
      ['КПП', oneLine(order.companyKpp)],
      ['Контактное лицо', oneLine(order.contactName)],
      ['Телефон', oneLine(order.contactPhone)],
      ['Адрес доставки', oneLine(order.address)],
    ],
  };
}

const greeting = (order: OrderForLetter) =>
  order.contactName ? `Здравствуйте, ${oneLine(order.contactName)}!` : 'Здравствуйте!';

const orderLink = (id: number) => ({ path: orderPath(id), label: `Открыть заказ № ${id}` });

/** What a question about the order is written under. */
const about = (id: number) => `Заказ № ${id}`;

/** Said under the lines of a letter that carries the order's spreadsheet (see OutgoingMail.sheetOrderId). */
const SHEET_ATTACHED = 'Все позиции заказа — в приложенном файле Excel.';

export function orderPlacedToBuyer(shop: ShopMail, order: OrderForLetter): Letter {
  return letter(shop, {
    subject: `Заказ № ${order.id} принят`,
    heading: `Заказ № ${order.id} принят`,
    blocks: [
      { paragraph: `${greeting(order)} Спасибо за заказ от ${formatMoscowDateTimeWithZone(order.createdAt)}.` },
      linesTable(shop, order, orderPath(order.id)),
      { paragraph: SHEET_ATTACHED },
      requisites(order),
      {
        paragraph:
          'Что дальше: менеджер проверит заказ и выставит счёт на оплату — он придёт письмом и появится в личном кабинете. ' +
          'После оплаты мы соберём заказ и отправим его; о каждом шаге сообщим письмом.',
      },
    ],
    link: orderLink(order.id),
    about: about(order.id),
    manager: order.manager,
  });
}

// The back office's order page (the client's adminOrderPath).
const adminOrder = (id: number) => `${PAGE_PATHS.admin}/orders/${id}`;

export function orderPlacedToManagers(shop: ShopMail, order: OrderForLetter): Letter {
  return letter(shop, {
    subject: `Новый заказ № ${order.id} на ${formatRubles(Number(order.totalPrice))}`,
    heading: `Новый заказ № ${order.id}`,
    blocks: [
      {
        facts: [
          ['Покупатель', order.buyerEmail],
          ['Оформил', oneLine(order.placedByName ?? null)],
          ['Оформлен', formatMoscowDateTimeWithZone(order.createdAt)],
        ],
      },
      linesTable(shop, order, adminOrder(order.id)),
      { paragraph: SHEET_ATTACHED },
      requisites(order),
      { paragraph: 'Проверьте заказ и выставьте счёт в бэк-офисе.' },
    ],
    link: { path: adminOrder(order.id), label: `Заказ № ${order.id} в бэк-офисе` },
  });
}

export function invoiceIssued(
  shop: ShopMail,
  order: Pick<OrderForLetter, 'id' | 'totalPrice' | 'manager'>,
  invoice: { number: number; date: Date; paymentDays: number },
): Letter {
  const title = invoiceTitle(invoice);
  const days = `${invoice.paymentDays} ${pluralForm(invoice.paymentDays, { one: 'дня', few: 'дней', many: 'дней' })}`;
  return letter(shop, {
    subject: `${title} по заказу № ${order.id}`,
    heading: `Счёт по заказу № ${order.id}`,
    blocks: [
      {
        paragraph: `Здравствуйте! Выставлен ${title.replace('Счёт', 'счёт')} на ${formatRubles(Number(order.totalPrice))}; он приложен к письму.`,
      },
      { paragraph: `Оплатите его в течение ${days} с даты счёта. После оплаты мы соберём и отправим заказ.` },
    ],
    link: orderLink(order.id),
    about: about(order.id),
    manager: order.manager,
  });
}

/** What each status means for the buyer; «Ожидает оплаты» comes with the invoice's own message. */
const STATUS_NEWS: Partial<Record<OrderStatus, string>> = {
  Оплачен: 'Оплата получена, мы собираем заказ.',
  Отправлен: 'Заказ передан в доставку.',
  Доставлен: 'Заказ доставлен. Спасибо, что выбрали нас!',
  Отменён: 'Заказ отменён, товары вернулись на склад. Если это ошибка, напишите нам.',
};

/** A change of status as the buyer's letter tells it. */
export interface StatusNews {
  status: OrderStatus;
  /** Why the shop itself made the change (a lapsed reservation), said instead of the status's news. */
  reason?: string;
  /** The manager's words on the change. */
  comment?: string | null;
  /** How «Отправлен» went. */
  tracking?: Tracking | null;
}

/** The letter of a change of status: what it means, the manager's comment, the parcel's tracking, and the order. */
export function statusChanged(shop: ShopMail, order: OrderForLetter, news: StatusNews): Letter {
  const { status, reason, comment, tracking } = news;
  const blocks: Block[] = [
    {
      paragraph:
        `${greeting(order)} Статус вашего заказа № ${order.id} — «${status}». ${reason ?? STATUS_NEWS[status] ?? ''}`.trim(),
    },
  ];
  if (tracking) {
    blocks.push({
      facts: [
        ['Перевозчик', tracking.carrier],
        ['Трек-номер', tracking.number && { text: tracking.number, href: tracking.url }],
      ],
    });
    if (tracking.url) blocks.push({ paragraph: 'Отследить посылку можно по ссылке на номере, на сайте перевозчика.' });
  }
  if (comment) blocks.push({ note: { label: 'Комментарий менеджера', text: comment } });
  blocks.push(linesTable(shop, order, orderPath(order.id)), { paragraph: SHEET_ATTACHED });
  return letter(shop, {
    subject: `Заказ № ${order.id}: ${status}`,
    heading: `Заказ № ${order.id}: «${status}»`,
    blocks,
    link: orderLink(order.id),
    about: about(order.id),
    manager: order.manager,
  });
}
