import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api-error';
import type { SignInThrottle } from '../../services/sign-in-throttle';

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

/**
 * Counts an attempt at `account` (or, null, per client only) made with `device` (a valid device
 * cookie's id), or refuses it with 429 (services/sign-in-throttle).
 */
export async function admitAttempt(
  throttle: SignInThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  account: string | null,
  device: string | null = null,
): Promise<void> {
  const retryAfter = await throttle.admit(request.ip, account, device);
  if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
}
