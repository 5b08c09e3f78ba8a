// Making and unmaking managers (there is no screen for it: a manager cannot promote anyone):
//   npm run users -- grant-manager <email>
//   npm run users -- revoke-manager <email>
//   npm run users -- grant-exchange <email>    (the account 1С signs in with at /1c_exchange)
//   npm run users -- revoke-exchange <email>   (its exchange sessions end at once)
//   npm run users -- list
import type { UserRole } from '../../shared/user-roles';
import { UserNotFoundError } from '../domain/domain-errors';
import { createExchangeTransportRepository } from '../repositories/exchange-transport';
import { createUsersRepository } from '../repositories/users';
import { runCommand, withDatabase } from './command-line';

const usage = `Использование:
  npm run users -- grant-manager <email>
  npm run users -- revoke-manager <email>
  npm run users -- grant-exchange <email>
  npm run users -- revoke-exchange <email>
  npm run users -- list`;

const roleOfCommand: Record<string, UserRole> = { 'grant-manager': 'manager', 'revoke-manager': 'buyer' };
const roleNames: Record<UserRole, string> = { manager: 'менеджер', buyer: 'покупатель' };
const exchangeOfCommand: Record<string, boolean> = { 'grant-exchange': true, 'revoke-exchange': false };

async function main(args: string[]): Promise<number> {
  const [command, email, ...extra] = args;
  if (command === 'list' && email === undefined) {
    return withDatabase(async (db) => {
      for (const user of await createUsersRepository(db).list()) {
        console.log(`${user.id}\t${user.email}\t${roleNames[user.role]}`);
      }
    });
  }
  const exchange = command === undefined ? undefined : exchangeOfCommand[command];
  if (exchange !== undefined && email && extra.length === 0) {
    return withDatabase(async (db) => {
      const user = await createExchangeTransportRepository(db).setExchangeAccess(email, exchange);
      if (!user) throw new UserNotFoundError(email);
      console.log(`${user.email}: ${exchange ? 'обмен с 1С разрешён' : 'обмен с 1С запрещён'}`);
    });
  }
  const role = command === undefined ? undefined : roleOfCommand[command];
  if (!role || !email || extra.length > 0) {
    console.error(usage);
    return 2;
  }
  return withDatabase(async (db) => {
    const user = await createUsersRepository(db).setRole(email, role);
    if (!user) throw new UserNotFoundError(email);
    console.log(`${user.email}: ${roleNames[user.role]}`);
  });
}

runCommand(main);
