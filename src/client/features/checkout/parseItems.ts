import type { CheckoutItem } from '@shared/paths';

const decodedArticle = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

const positiveInteger = (text: string) => (/^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null);

/**
 * Reads `items=art:variant_id:count,...` (SPEC §2) as `checkoutPath` (shared/paths) wrote it. The article may
 * itself contain ':', so the last two parts are the numbers. `null` when any entry is malformed.
 */
export function parseCheckoutItems(raw: string | null): CheckoutItem[] | null {
  if (!raw) return null;
  const items: CheckoutItem[] = [];
  for (const entry of raw.split(',')) {
    const parts = entry.split(':');
    if (parts.length < 3) return null;
    const count = positiveInteger(parts.pop()!);
    const variantId = positiveInteger(parts.pop()!);
    const art = decodedArticle(parts.join(':').trim());
    if (!art || variantId === null || count === null) return null;
    items.push({ art, variantId, count });
  }
  return items;
}
