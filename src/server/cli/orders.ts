// Managers' command beside the back office:
//   npm run orders -- status <order id> <status> [--comment <text>] [--carrier <name> --tracking <number>]
//   npm run orders -- list-statuses
import { CARRIER_NAMES, TRACKING_NUMBER_MAX, TRACKING_NUMBER_PATTERN } from '../../shared/carriers';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/order-statuses';
import { loadConfig } from '../config';
import { shopMail } from '../mail/letter';
import { createOrderService } from '../services/orders';
import { parseId, runCommand, withDatabase } from './command-line';

const usage = `Использование:
  npm run orders -- status <номер заказа> <статус> [--comment <комментарий>] [--carrier <перевозчик> --tracking <трек-номер>]
  npm run orders -- list-statuses
Статусы: ${ORDER_STATUSES.join(', ')}
Перевозчики (со статусом «Отправлен»): ${CARRIER_NAMES.join(', ')}
«Ожидает оплаты» заказ получает при выставлении счёта; отмена возвращает товар на склад.`;

const isStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

const OPTIONS = ['--comment', '--carrier', '--tracking'] as const;
type OptionName = (typeof OPTIONS)[number];

/**
 * The words before the first option, and each option's words up to the next one: a status
 * («Ожидает оплаты»), a comment and a carrier («Почта России») may each be several words, quoted or not.
 */
function splitOptions(words: string[]): { leading: string; options: Map<OptionName, string> } | { unknown: string } {
  const options = new Map<OptionName, string>();
  let current: OptionName | null = null;
  const leading: string[] = [];
  for (const word of words) {
    if (word.startsWith('--')) {
      if (!(OPTIONS as readonly string[]).includes(word)) return { unknown: word };
      current = word as OptionName;
      options.set(current, '');
    } else if (current) {
      options.set(current, [options.get(current), word].filter(Boolean).join(' '));
    } else {
      leading.push(word);
    }
  }
  return { leading: leading.join(' '), options };
}

async function main(args: string[]): Promise<number> {
  const [command, id, ...rest] = args;
  if (command === 'list-statuses') {
    console.log(ORDER_STATUSES.join('\n'));
    return 0;
  }
  if (command !== 'status') {
    console.error(usage);
    return 2;
  }
  const orderId = parseId(id);
  if (orderId === null) {
    console.error(`Номер заказа должен быть целым числом от 1 до 2147483647, а не «${id ?? ''}».\n${usage}`);
    return 1;
  }
  const split = splitOptions(rest);
  if ('unknown' in split) {
    console.error(`Неизвестный параметр «${split.unknown}».\n${usage}`);
    return 2;
  }
  const status = split.leading;
  if (!isStatus(status)) {
    console.error(`Неизвестный статус «${status}».\n${usage}`);
    return 1;
  }
  const carrier = split.options.get('--carrier') ?? null;
  if (carrier !== null && !(CARRIER_NAMES as string[]).includes(carrier)) {
    console.error(`Неизвестный перевозчик «${carrier}». Перевозчики: ${CARRIER_NAMES.join(', ')}`);
    return 1;
  }
  const trackingNumber = split.options.get('--tracking') ?? null;
  // The back office's rule for the number (its schema's pattern and length), said in its words.
  if (
    trackingNumber !== null &&
    (trackingNumber.length > TRACKING_NUMBER_MAX || !new RegExp(TRACKING_NUMBER_PATTERN).test(trackingNumber))
  ) {
    console.error(
      `Трек-номер «${trackingNumber}» не подходит: латинские буквы и цифры (пробел и дефис — между ними), не больше ${TRACKING_NUMBER_MAX} символов`,
    );
    return 1;
  }
  return withDatabase(async (db) => {
    const config = loadConfig();
    const result = await createOrderService(db, shopMail(config), config).changeStatus(orderId, {
      to: status,
      source: 'manager',
      byUserId: null,
      comment: split.options.get('--comment') ?? null,
      carrier,
      trackingNumber,
    });
    console.log(`Заказ #${result.id}: ${result.status}`);
  });
}

runCommand(main);
