export interface CheckoutItem {
  art: string;
  variantId: number;
  count: number;
}

const decodedArticle = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

const positiveInteger = (text: string) => (/^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null);

/**
 * The checkout page's address for `items` (SPEC §2: `items=art:variant_id:count,...`). Each
 * article is encoded on its own before the address encodes it again, so an article with ',' or '%'
 * in it comes back whole, while an ordinary one (MO-1001) reads as itself in the address bar.
 */
export function checkoutPath(items: CheckoutItem[]): string {
  const entries = items.map(({ art, variantId, count }) => `${encodeURIComponent(encodeURIComponent(art))}:${variantId}:${count}`);
  return `/checkout?items=${entries.join(',')}`;
}

/**
 * Reads `items=art:variant_id:count,...` (SPEC §2) as `checkoutPath` wrote it. The article may
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
