/**
 * Files the API hands out only with the bearer token (an invoice's PDF): a plain link cannot send
 * it, so the file is fetched through the API slice and saved from a Blob URL.
 */

/** A fetched file, kept in the store as strings: the Blob stays behind its object URL. */
export interface FetchedFile {
  url: string;
  fileName: string;
}

/**
 * The file name a Content-Disposition header gives: RFC 6266's `filename*=UTF-8''…` (Cyrillic
 * names) before the plain `filename="…"`; `fallback` when it gives none.
 */
export function contentDispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: the plain name, if any, is still good.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  return (plain?.[1] ?? plain?.[2])?.trim() || fallback;
}

/**
 * A `responseHandler` for an RTK Query endpoint that fetches a file: a successful answer becomes
 * an object URL and its name; a failed one is read as JSON, so its `{detail}` reaches the caller.
 */
export function fileResponseHandler(fallbackName: string) {
  return async (response: Response): Promise<FetchedFile | unknown> => {
    if (!response.ok) return response.json().catch(() => null);
    const blob = await response.blob();
    return {
      url: URL.createObjectURL(blob),
      fileName: contentDispositionFileName(response.headers.get('Content-Disposition'), fallbackName),
    };
  };
}

/** Hands a fetched file to the browser as a download and lets its Blob go. */
export function saveFetchedFile({ url, fileName }: FetchedFile): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
