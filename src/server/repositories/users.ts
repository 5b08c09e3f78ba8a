import { eq } from 'drizzle-orm';
import type { User } from '../../shared/api';
import type { Queryable } from '../db/database';
import { users } from '../db/schema';

export function createUsersRepository(db: Queryable) {
  return {
    /** `null` when the e-mail is taken (the unique index decides, so two racing sign-ups cannot both win). */
    async create(email: string, passwordHash: string): Promise<User | null> {
      const [row] = await db
        .insert(users)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id, email: users.email });
      return row ?? null;
    },

    async findCredentials(email: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email));
      return row ?? null;
    },

    async findById(id: number): Promise<User | null> {
      const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, id));
      return row ?? null;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
