import type { FetchArgs } from '@reduxjs/toolkit/query/react';
import { apiReadKey, INITIAL_RESPONSES_ELEMENT_ID } from '@shared/api';

const unread = new Map<string, unknown>();

/** Moves the API answers the server wrote into the page (its storefront plugin) into `unread`. */
function collectInitialResponses(): void {
  const element = document.getElementById(INITIAL_RESPONSES_ELEMENT_ID);
  if (!element) return;
  element.remove();
  try {
    for (const [key, data] of Object.entries(JSON.parse(element.textContent ?? '{}') as Record<string, unknown>))
      unread.set(key, data);
  } catch {
    // A page without usable answers simply asks the API.
  }
}

/**
 * The server's answer to this read if the page came with it: used once, for the first render,
 * so every later read (a refetch, a page change, an invalidation) goes to the API. The server
 * writes a visitor's answers (its prices among them): a caller with a session (`signedIn`) takes
 * none, and they are dropped, lest one show after a sign-out or with the buyer's own prices late.
 */
export function takeInitialResponse(args: string | FetchArgs, signedIn: boolean): { data: unknown } | null {
  collectInitialResponses();
  if (signedIn) {
    unread.clear();
    return null;
  }
  const { url, params, method } = typeof args === 'string' ? { url: args, params: undefined, method: 'GET' } : args;
  if ((method ?? 'GET').toUpperCase() !== 'GET') return null;
  const key = apiReadKey(url, params as Record<string, string | number> | undefined);
  if (!unread.has(key)) return null;
  const data = unread.get(key);
  unread.delete(key);
  return { data };
}
