import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { appSettings } from '../db/schema';

export function createSettingsRepository(db: Queryable) {
  return {
    /** Stores `candidate` unless a value is already there, and returns whichever value won. */
    async getOrInsert(key: string, candidate: string): Promise<string> {
      await db.insert(appSettings).values({ key, value: candidate }).onConflictDoNothing({ target: appSettings.key });
      const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
      return row!.value;
    },

    async get(key: string): Promise<string | null> {
      const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
      return row?.value ?? null;
    },

    async set(key: string, value: string): Promise<void> {
      await db
        .insert(appSettings)
        .values({ key, value })
        .onConflictDoUpdate({ target: appSettings.key, set: { value } });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
