import type { RateLimitConfig } from '../config';
import type { AttemptStanding, SignInAttemptsRepository } from '../repositories/sign-in-attempts';

/** The wait a client that failed at an account is given once the account has `limit.max` failures. */
export const FIRST_ACCOUNT_DELAY_MS = 30_000;

/**
 * How long after an account's latest failure a client that has itself failed at it must wait, with
 * `failures` of them in the window: 30 s at `limit.max`, doubling with each further one, at most the window.
 */
export function accountDelayMs(failures: number, limit: RateLimitConfig): number {
  return Math.min(limit.windowMs, FIRST_ACCOUNT_DELAY_MS * 2 ** (failures - limit.max));
}

export interface SignInLimits {
  loginRateLimitPerClient: RateLimitConfig;
  loginRateLimitPerAccount: RateLimitConfig;
}

/**
 * Throttles the attempts at passwords (sign-in, the password checks of a signed-in account) and the
 * other calls that cost a password's hash or send a letter (sign-up, the reset), counted in the
 * database so that every server process sees every attempt:
 * - per client: at most `loginRateLimitPerClient.max` attempts of any kind in its window;
 * - per account: once it has `loginRateLimitPerAccount.max` failures in the window, from any
 *   clients, a client that has itself failed at it waits `accountDelayMs` after the latest failure.
 *   A client that has not failed at the account is never held back by it: a stranger's wrong
 *   guesses cannot lock the owner out, who signs in at once from a device that has not failed.
 */
export function createSignInThrottle(attempts: SignInAttemptsRepository, limits: SignInLimits) {
  const { loginRateLimitPerClient: perClient, loginRateLimitPerAccount: perAccount } = limits;
  const windows = { clientMs: perClient.windowMs, accountMs: perAccount.windowMs };
  const secondsUntil = (time: number, now: number) => Math.max(1, Math.ceil((time - now) / 1000));

  /** Seconds to wait when the attempt is refused, else null. */
  function refusal(standing: AttemptStanding): number | null {
    if (standing.clientAttempts >= perClient.max) {
      return secondsUntil(standing.clientOldestAt! + perClient.windowMs, standing.now);
    }
    if (standing.ownFailures > 0 && standing.accountFailures >= perAccount.max) {
      const allowedAt = standing.accountLastFailureAt! + accountDelayMs(standing.accountFailures, perAccount);
      if (allowedAt > standing.now) return secondsUntil(allowedAt, standing.now);
    }
    return null;
  }

  return {
    /**
     * Records an attempt by `client`, at `account` (its normalised e-mail, whether or not it has an
     * account) or, null, counted per client only; answers the seconds to wait when it is refused, else
     * null. An attempt at an account counts as a failure until `succeeded` says otherwise.
     */
    admit: (client: string, account: string | null) => attempts.record({ client, account }, windows, refusal),

    /** The client proved the account's password: its failures at the account are forgiven (the owner's typos). */
    succeeded: (client: string, account: string) => attempts.succeeded(client, account),

    /** Deletes the attempts that no window counts any more. */
    purge: () => attempts.purge(Math.max(windows.clientMs, windows.accountMs)),
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
