// Managers' command until a manager screen exists:
//   npm run orders -- status <order id> <status>
//   npm run orders -- list-statuses
import { ORDER_STATUSES, type OrderStatus } from '../../shared/api';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { DomainError } from '../domain/errors';
import { createOrdersRepository } from '../repositories/orders';

const usage = `Использование:
  npm run orders -- status <номер заказа> <статус>
  npm run orders -- list-statuses
Статусы: ${ORDER_STATUSES.join(', ')}`;

const isStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

async function main(args: string[]): Promise<number> {
  const [command, id, ...statusWords] = args;
  if (command === 'list-statuses') {
    console.log(ORDER_STATUSES.join('\n'));
    return 0;
  }
  const status = statusWords.join(' ');
  const orderId = Number(id);
  if (command !== 'status' || !Number.isSafeInteger(orderId) || orderId < 1 || !status) {
    console.error(usage);
    return 2;
  }
  if (!isStatus(status)) {
    console.error(`Неизвестный статус «${status}». ${usage}`);
    return 2;
  }
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase(config);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
  try {
    await database.migrate(database.db);
    const result = await createOrdersRepository(database.db).setStatus(orderId, status);
    console.log(`Заказ #${result.id}: ${result.status}`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      console.error(error.detail);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
