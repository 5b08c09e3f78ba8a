/**
 * The server's own explanation of a failed request: the `detail` of its 4xx/5xx JSON body, as
 * RTK Query hands it over in `error.data` (or a thunk rejects with it). `undefined` when the
 * failure has none (network error, empty or non-JSON body), so the caller falls back to its own words.
 */
export function serverErrorDetail(error: unknown): string | undefined {
  const detail = (error as { data?: { detail?: unknown } } | null | undefined)?.data?.detail;
  return typeof detail === 'string' && detail ? detail : undefined;
}
