import ipaddr from 'ipaddr.js';
import type { RateLimitConfig } from '../config';
import type { ResetLetterLimits } from '../repositories/reset-requests';
import type { AttemptStanding, SignInAttemptsRepository } from '../repositories/sign-in-attempts';

/**
 * The client as the throttling counts it: an IPv4 address as it is (an IPv4-mapped IPv6 one too),
 * an IPv6 one by its /64 network. An ISP gives one subscriber, and a host one server, a whole /64:
 * counted by address, each of its 2^64 addresses would be a new client, whose first guess at an
 * account is never refused.
 */
export function throttledClient(ip: string): string {
  const bare = ip.split('%')[0]!;
  if (!ipaddr.IPv6.isValid(bare)) return ip;
  // process(): an IPv4-mapped address as the IPv4 one it is.
  const address = ipaddr.process(bare);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
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
 * - per account, by device cookie (OWASP «Slow Down Online Guessing Attacks with Device Cookies»):
 *   each device cookie issued for the account is locked on its own once it has
 *   `loginRateLimitPerAccount.max` failures in the window, and every client without one shares one
 *   lockout of the same size. Strangers guessing from any number of addresses get that many guesses
 *   a window in all, and cannot lock out the owner's devices, which sign in whatever they do.
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
    // Refused attempts are not recorded, so a lockout holds exactly `max` failures: it opens when the oldest leaves the window.
    if (standing.lockoutFailures >= perAccount.max) {
      return secondsUntil(standing.lockoutOldestFailureAt! + perAccount.windowMs, standing.now);
    }
    return null;
  }

  return {
    /**
     * Records an attempt from `ip` (counted as `throttledClient`), at `account` (its normalised
     * e-mail, whether or not it has an account) or, null, counted per client only, with `device` (the
     * id of a valid device cookie for the account, else null); answers the seconds to wait when it
     * is refused, else null. An attempt at an account counts as a failure until `succeeded` says otherwise.
     */
    admit: (ip: string, account: string | null, device: string | null = null) =>
      attempts.record({ client: throttledClient(ip), account, device }, windows, refusal),

    /** The password of `account` was proved: the failures of the device cookie, or without one of the client, are forgiven (the owner's typos). */
    succeeded: (ip: string, account: string, device: string | null) =>
      attempts.succeeded({ client: throttledClient(ip), account, device }),

    /** Deletes the attempts that no window counts any more. */
    purge: () => attempts.purge(Math.max(windows.clientMs, windows.accountMs)),
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

/**
 * Letters with a link (the password reset's and the address confirmation's, counted together in
 * reset_requests) one address may be sent: 5 an hour per requesting client, enough for a lost one,
 * so that a stranger's requests never use up the owner's; and 20 a day from all clients together,
 * so that strangers with many addresses cannot flood the mailbox (a reset asked for from the owner's
 * device is not held back by those 20).
 */
export const LETTER_LIMITS: ResetLetterLimits = {
  perClient: { max: 5, windowMs: 60 * 60 * 1000 },
  perAddress: { max: 20, windowMs: 24 * 60 * 60 * 1000 },
};

/**
 * The owners' invitation letters, counted with the letters above: one address gets at most five a
 * day, whoever invites it (an owner inviting a team writes to as many addresses as they like).
 */
export const INVITATION_LETTER_LIMITS: ResetLetterLimits = {
  perClient: { max: 5, windowMs: 24 * 60 * 60 * 1000 },
  perAddress: { max: 5, windowMs: 24 * 60 * 60 * 1000 },
};
