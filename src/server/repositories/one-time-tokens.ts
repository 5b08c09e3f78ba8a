import { and, eq, gt, isNull } from 'drizzle-orm';
import type { emailConfirmationTokens, passwordResetTokens } from '../db/schema';

/** The tables of links sent by e-mail: a token's SHA-256, when it expires, when it was used. */
type OneTimeTokens = typeof passwordResetTokens | typeof emailConfirmationTokens;

/** The token, unless it was used or has expired. */
export const liveToken = (table: OneTimeTokens, tokenHash: string, now: Date) =>
  and(eq(table.tokenHash, tokenHash), isNull(table.usedAt), gt(table.expiresAt, now));
