// Managers' command beside the back office:
//   npm run orders -- status <order id> <status> [--comment <text>]
//   npm run orders -- list-statuses
import { ORDER_STATUSES, type OrderStatus } from '../../shared/order-statuses';
import { loadConfig } from '../config';
import { shopMail } from '../mail/letter';
import { createOrderService } from '../services/orders';
import { parseId, runCommand, withDatabase } from './command-line';

const usage = `Использование:
  npm run orders -- status <номер заказа> <статус> [--comment <комментарий>]
  npm run orders -- list-statuses
Статусы: ${ORDER_STATUSES.join(', ')}
«Ожидает оплаты» заказ получает при выставлении счёта; отмена возвращает товар на склад.`;

const isStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

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
  const commentAt = rest.indexOf('--comment');
  const status = (commentAt === -1 ? rest : rest.slice(0, commentAt)).join(' ');
  const comment = commentAt === -1 ? null : rest.slice(commentAt + 1).join(' ');
  if (!isStatus(status)) {
    console.error(`Неизвестный статус «${status}».\n${usage}`);
    return 1;
  }
  return withDatabase(async (db) => {
    const config = loadConfig();
    const result = await createOrderService(db, shopMail(config), config).changeStatus(orderId, {
      to: status,
      source: 'manager',
      byUserId: null,
      comment,
    });
    console.log(`Заказ #${result.id}: ${result.status}`);
  });
}

runCommand(main);
