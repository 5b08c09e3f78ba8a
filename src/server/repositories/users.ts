import { asc, desc, eq } from 'drizzle-orm';
import type { User, UserRole } from '../../shared/api';
import type { Queryable } from '../db/database';
import { users } from '../db/schema';

const userColumns = { id: users.id, email: users.email, role: users.role };

export function createUsersRepository(db: Queryable) {
  return {
    /** `null` when the e-mail is taken (the unique index decides, so two racing sign-ups cannot both win). */
    async create(email: string, passwordHash: string): Promise<User | null> {
      const [row] = await db
        .insert(users)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning(userColumns);
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
      const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
      return row ?? null;
    },

    /** `null` for an unknown e-mail (stored lower-cased, so it is looked up the same way). */
    async setRole(email: string, role: UserRole): Promise<User | null> {
      const [row] = await db
        .update(users)
        .set({ role })
        .where(eq(users.email, email.trim().toLowerCase()))
        .returning(userColumns);
      return row ?? null;
    },

    /** Managers first, then everyone else, each in order of sign-up. */
    list(): Promise<User[]> {
      return db.select(userColumns).from(users).orderBy(desc(users.role), asc(users.id));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
