/**
 * An error whose status and `detail` are meant for the client. Anything else that reaches the
 * error handler is an internal failure and is answered with a generic 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const unauthorized = (detail = 'Требуется вход в систему') => new ApiError(401, detail);
export const forbidden = (detail = 'Доступ запрещён') => new ApiError(403, detail);
export const notFound = (detail: string) => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
export const unprocessable = (detail: string) => new ApiError(422, detail);
export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new ApiError(405, `Метод ${method} не поддерживается для этого адреса; допустимы: ${allowed.join(', ')}`);
