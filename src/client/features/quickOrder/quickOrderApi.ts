import type { CartImportLine, CartImportResult } from '@shared/api';
import { cartApi } from '@/features/cart/cartApi';
import { announceCartSaved } from '@/features/cart/cartChannel';

/** What the buyer gives: lines typed or pasted, or a spreadsheet. */
export type QuickOrderInput = { text: string } | { file: File };

/** Pasted lines go as plain text; a file as multipart, in the one field the server reads (`file`). */
function importBody(input: QuickOrderInput): { body: string | FormData; headers?: Record<string, string> } {
  if ('text' in input) return { body: input.text, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  const body = new FormData();
  body.append('file', input.file);
  return { body };
}

/**
 * The lines as the server reads them back: tab-separated (a colour may hold spaces), one a line.
 * Only the lines the check passed are sent, so the server's line N is the N-th of these.
 */
export const linesAsText = (lines: CartImportLine[]) =>
  lines.map(({ art, color, size, count }) => [art, color, size, count].join('\t')).join('\n');

/**
 * Quick order: injected with the page's chunk, so the shell does not carry it. The
 * check only reads; the addition is all or nothing on the server.
 */
export const quickOrderApi = cartApi.injectEndpoints({
  endpoints: (build) => ({
    checkQuickOrder: build.mutation<CartImportResult, QuickOrderInput>({
      query: (input) => ({
        url: 'api/v1/cart/import',
        method: 'POST',
        params: { dry_run: true },
        ...importBody(input),
      }),
    }),
    /** The checked lines that may be added, into the cart at once. */
    addQuickOrder: build.mutation<CartImportResult, CartImportLine[]>({
      query: (lines) => ({
        url: 'api/v1/cart/import',
        method: 'POST',
        params: { dry_run: false },
        ...importBody({ text: linesAsText(lines) }),
      }),
      // This tab's cart and header badge reload; a refused addition changed nothing.
      invalidatesTags: (answer) => (answer ? ['Cart'] : []),
      // The shopper's other tabs reload their cart too (no counts to show at once: the answer has none).
      async onQueryStarted(_lines, { queryFulfilled }) {
        if (await queryFulfilled.then(Boolean, () => false)) announceCartSaved({});
      },
    }),
  }),
});

export const { useCheckQuickOrderMutation, useAddQuickOrderMutation } = quickOrderApi;
