import { escapeHtml } from '../html';

/** The sitemap protocol's limit of addresses in one file (sitemaps.org); beyond it, an index of files. */
export const URLS_PER_SITEMAP = 50_000;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** A sitemap file listing `addresses` (absolute, already percent-encoded). */
export function urlSet(addresses: string[]): string {
  const urls = addresses.map((address) => `<url><loc>${escapeHtml(address)}</loc></url>\n`);
  return `${XML_DECLARATION}<urlset xmlns="${NAMESPACE}">\n${urls.join('')}</urlset>\n`;
}

/** A sitemap index naming the sitemap files at `addresses`. */
export function sitemapIndex(addresses: string[]): string {
  const files = addresses.map((address) => `<sitemap><loc>${escapeHtml(address)}</loc></sitemap>\n`);
  return `${XML_DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n${files.join('')}</sitemapindex>\n`;
}

/**
 * The addresses are the shop's own pages (`pageCount` of them) followed by every product, cut
 * into files of `perFile`: how many files there are, and what file `part` (zero-based) holds — a
 * slice of the pages and a page of the products.
 */
export function sitemapParts(pageCount: number, productCount: number, perFile = URLS_PER_SITEMAP) {
  return {
    count: Math.max(1, Math.ceil((pageCount + productCount) / perFile)),
    part(part: number) {
      const start = part * perFile;
      const end = start + perFile;
      const pages = { start: Math.min(start, pageCount), end: Math.min(end, pageCount) };
      const productSkip = Math.max(0, start - pageCount);
      return { pages, products: { skip: productSkip, limit: Math.max(0, end - pageCount - productSkip) } };
    },
  };
}
