import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api-error';
import type { ResetLetterLimits } from '../../repositories/reset-requests';
import type { SignInThrottle } from '../../services/sign-in-throttle';

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

/** The 429 of the auth calls' limits, with the seconds to wait. */
export function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number): ApiError {
  reply.header('retry-after', String(retryAfterSeconds));
  return new ApiError(429, 'Слишком много попыток. Попробуйте позже.');
}

/** onRequest of a call counted per client only (services/sign-in-throttle), refused with 429 beyond it. */
export const countedPerClient =
  (throttle: SignInThrottle) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const retryAfter = await throttle.admit(request.ip, null);
    if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
  };
