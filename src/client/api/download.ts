import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

/**
 * The file name a Content-Disposition header gives: `filename*` (RFC 8187, UTF-8) when present,
 * as the server writes the real name there, else the plain `filename`; null when it gives none.
 */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!);
    } catch {
      // A malformed escape: the plain name below is the fallback the header itself offers.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (!plain) return null;
  const name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!;
  return name || null;
}

/** Hands a file to the browser's download under the given name. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: the download has its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * An RTK Query `queryFn` that fetches a file through the app's base query (so the bearer token is
 * sent and refreshed like any other call) and saves it. The file itself never enters the store
 * (a Blob is not serialisable, and it could be large): the endpoint's data is the saved file's name.
 */
export function downloadFile<Arg>(url: (arg: Arg) => string, fallbackName: (arg: Arg) => string) {
  return async (
    arg: Arg,
    _api: unknown,
    _extraOptions: unknown,
    baseQuery: (args: FetchArgs) => ReturnType<BaseQueryFn<FetchArgs, unknown, FetchBaseQueryError>>,
  ): Promise<{ data: string } | { error: FetchBaseQueryError }> => {
    const result = await baseQuery({
      url: url(arg),
      // An error answer is the server's JSON {detail}; only a success is the file.
      responseHandler: async (response): Promise<DownloadedFile | unknown> =>
        response.ok
          ? { blob: await response.blob(), fileName: dispositionFileName(response.headers.get('content-disposition')) }
          : response.json().catch(() => null),
    });
    if (result.error) return { error: result.error };
    const { blob, fileName } = result.data as DownloadedFile;
    const name = fileName ?? fallbackName(arg);
    saveFile(blob, name);
    return { data: name };
  };
}
