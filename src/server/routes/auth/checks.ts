import type { FastifyRequest } from 'fastify';
import { EMAIL_PATTERN } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import { forbidden, unprocessable } from '../../api-error';
import { newPasswordProblem } from '../../services/password-rules';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function validEmail(raw: string | undefined): string {
  const email = normaliseEmail(raw ?? '');
  if (!email) throw unprocessable(MESSAGES.emailRequired);
  if (email.length > LIMITS.emailMax || !EMAIL_PATTERN.test(email)) throw unprocessable(MESSAGES.emailInvalid);
  return email;
}

/** `password` when it may be the account's new one, else 422 saying why (services/password-rules). */
export function validNewPassword(password: string | undefined, email: string): string {
  const problem = newPasswordProblem(password ?? '', email);
  if (problem) throw unprocessable(problem);
  return password!;
}

/**
 * onRequest of the calls a foreign page could send from the buyer's browser: refresh and logout act
 * on a cookie the browser sends by itself, and a foreign form must neither sign the browser in to
 * an account of its choosing (login CSRF), nor sign up, nor ask for or complete a reset. A request
 * without an Origin header (not a browser's) passes, as before.
 */
export const sameOriginOnly =
  (allowedOrigins: readonly string[]) =>
  async (request: FastifyRequest): Promise<void> => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === `${request.protocol}://${request.host}` || allowedOrigins.includes(origin)) return;
    throw forbidden('Запрос с чужого сайта отклонён');
  };
