// Making and unmaking managers (there is no screen for it: a manager cannot promote anyone):
//   npm run users -- grant-manager <email>
//   npm run users -- revoke-manager <email>
//   npm run users -- list
import type { UserRole } from '../../shared/user-roles';
import { UserNotFoundError } from '../domain/domain-errors';
import { createUsersRepository } from '../repositories/users';
import { runCommand, withDatabase } from './command-line';

const usage = `Использование:
  npm run users -- grant-manager <email>
  npm run users -- revoke-manager <email>
  npm run users -- list`;

const roleOfCommand: Record<string, UserRole> = { 'grant-manager': 'manager', 'revoke-manager': 'buyer' };
const roleNames: Record<UserRole, string> = { manager: 'менеджер', buyer: 'покупатель' };

async function main(args: string[]): Promise<number> {
  const [command, email, ...extra] = args;
  if (command === 'list' && email === undefined) {
    return withDatabase(async (db) => {
      for (const user of await createUsersRepository(db).list()) {
        console.log(`${user.id}\t${user.email}\t${roleNames[user.role]}`);
      }
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
