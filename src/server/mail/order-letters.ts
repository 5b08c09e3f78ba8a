// The messages an order sends: placed (to the buyer and to the managers), invoiced, and each later
// change of its status.
import type { OrderStatus } from '../../shared/api';
import { formatRubles } from '../../shared/money';
import { orderPath, PAGE_PATHS } from '../../shared/paths';
import { pluralForm } from '../invoices/amountInWords';
import { invoiceTitle } from '../invoices/invoicePdf';
import { toKopecks } from '../money';
import { ORDER_LINE_COLUMNS } from '../services/order-sheet';
import { formatMoment, letter, type Block, type Letter, type ShopMail } from './letter';

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
}

function linesTable(order: OrderForLetter): Block {
  return {
    table: {
      head: [...ORDER_LINE_COLUMNS],
      rows: order.lines.map((line) => [
        line.art,
        line.name,
        line.color,
        `${line.size} см`,
        formatRubles(Number(line.price)),
        String(line.quantity),
        formatRubles((toKopecks(line.price) * line.quantity) / 100),
      ]),
      total: ['Итого', formatRubles(Number(order.totalPrice))],
    },
  };
}

/**
 * A one-line field as the buyer typed it, its line breaks made spaces: a name, phone, company or
 * address with CR/LF would otherwise start lines of its own in the text part («Статус: Оплачен»),
 * forged into the managers' letter.
 */
const oneLine = (value: string | null) => value?.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ') ?? null;

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

const orderLink = (id: number) => ({ path: orderPath(id), label: `Заказ № ${id} в личном кабинете` });

export function orderPlacedToBuyer(shop: ShopMail, order: OrderForLetter): Letter {
  return letter(shop, {
    subject: `Заказ № ${order.id} принят`,
    heading: `Заказ № ${order.id} принят`,
    blocks: [
      { paragraph: `${greeting(order)} Спасибо за заказ от ${formatMoment(order.createdAt)}.` },
      linesTable(order),
      requisites(order),
      {
        paragraph:
          'Что дальше: менеджер проверит заказ и выставит счёт на оплату — он придёт письмом и появится в личном кабинете. ' +
          'После оплаты мы соберём заказ и отправим его; о каждом шаге сообщим письмом.',
      },
    ],
    link: orderLink(order.id),
  });
}

export function orderPlacedToManagers(shop: ShopMail, order: OrderForLetter): Letter {
  return letter(shop, {
    subject: `Новый заказ № ${order.id} на ${formatRubles(Number(order.totalPrice))}`,
    heading: `Новый заказ № ${order.id}`,
    blocks: [
      {
        facts: [
          ['Покупатель', order.buyerEmail],
          ['Оформлен', formatMoment(order.createdAt)],
        ],
      },
      linesTable(order),
      requisites(order),
      { paragraph: 'Проверьте заказ и выставьте счёт в бэк-офисе.' },
    ],
    // The back office's order page (the client's adminOrderPath).
    link: { path: `${PAGE_PATHS.admin}/orders/${order.id}`, label: `Заказ № ${order.id} в бэк-офисе` },
  });
}

export function invoiceIssued(
  shop: ShopMail,
  order: Pick<OrderForLetter, 'id' | 'totalPrice'>,
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
  });
}

/** What each status means for the buyer; «Ожидает оплаты» comes with the invoice's own message. */
const STATUS_NEWS: Partial<Record<OrderStatus, string>> = {
  Оплачен: 'Оплата получена, мы собираем заказ.',
  Отправлен: 'Заказ передан в доставку.',
  Доставлен: 'Заказ доставлен. Спасибо, что выбрали нас!',
  Отменён: 'Заказ отменён, товары вернулись на склад. Если это ошибка, напишите нам.',
};

/** `reason`: why the shop itself made the change (a lapsed reservation), said instead of the status's news. */
export function statusChanged(shop: ShopMail, orderId: number, status: OrderStatus, reason?: string): Letter {
  return letter(shop, {
    subject: `Заказ № ${orderId}: ${status}`,
    heading: `Заказ № ${orderId}: «${status}»`,
    blocks: [
      {
        paragraph:
          `Здравствуйте! Статус вашего заказа № ${orderId} — «${status}». ${reason ?? STATUS_NEWS[status] ?? ''}`.trim(),
      },
    ],
    link: orderLink(orderId),
  });
}
