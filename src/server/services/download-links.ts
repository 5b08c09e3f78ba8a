import { createHmac, timingSafeEqual } from 'node:crypto';
import { MARKETPLACE_KIT_MAX_PRODUCTS } from '../../shared/marketplace-kit';
import type { AccessClaims } from './tokens';

/** A download link lasts this long: the browser follows it at once (the storefront asks just before). */
export const DOWNLOAD_LINK_TTL_SECONDS = 90;

/**
 * The paths a download link may be made for: the marketplace kit's downloads and the files of the
 * back office's 1С exchanges (up to the limit of 1С's uploads), whose files are large and which the
 * browser should save itself rather than through script. Nothing else is ever answered for a
 * link, and the route's own access rules still apply (a buyer's link to an exchange's file is
 * refused as the buyer would be).
 */
export const LINKABLE_PATHS: readonly RegExp[] = [
  /^\/api\/v1\/order\/\d{1,10}\/\d{1,10}\/marketplace-kit$/,
  /^\/api\/v1\/cart\/\d{1,10}\/marketplace-kit$/,
  new RegExp(`^/api/v1/marketplace-kit\\?products=\\d{1,10}(,\\d{1,10}){0,${MARKETPLACE_KIT_MAX_PRODUCTS - 1}}$`),
  /^\/api\/v1\/admin\/exchange\/runs\/[0-9a-f-]{36}\/files\/[^/?&#]{1,800}$/,
];

export const isLinkable = (path: string) => LINKABLE_PATHS.some((pattern) => pattern.test(path));

export type LinkVerdict = AccessClaims | 'expired' | 'invalid';

export interface DownloadLinks {
  /** The URL of `path` that authenticates as the session for DOWNLOAD_LINK_TTL_SECONDS. */
  urlOf(claims: AccessClaims, path: string): string;
  /** Who a request's URL with a `link` is for, or null when it carries none. */
  verify(url: string): LinkVerdict | null;
}

/** Whether the URL's query names a `link` at all (a search for «blink» does not). */
function hasLinkParameter(url: string): boolean {
  const queryAt = url.indexOf('?');
  return queryAt >= 0 && new URLSearchParams(url.slice(queryAt + 1)).has('link');
}

/** `link`, last of the URL's query: the path before it is what the token was signed for. */
const LINKED_URL = /^(.+)[?&]link=([\w-]+)\.([\w-]+)$/;

/**
 * Stateless links, so any process of the shop honours one another made: `link=<claims>.<mac>`,
 * the claims (user, session, expiry) in base64url JSON and the mac an HMAC-SHA256 over them and the
 * path, with a key derived from the shop's secret for this use alone (an access token's signature
 * is never a link's, nor the reverse). The session is checked against the revoked ones as an
 * access token's is (plugins/authentication.ts).
 */
export function createDownloadLinks(secret: string, ttlSeconds: number, now: () => number = Date.now): DownloadLinks {
  const key = createHmac('sha256', secret).update('download-link').digest();
  const mac = (claims: string, path: string) =>
    createHmac('sha256', key).update(`${claims}\n${path}`).digest('base64url');
  return {
    urlOf({ userId, sessionId }, path) {
      const expires = Math.floor(now() / 1000) + ttlSeconds;
      const claims = Buffer.from(JSON.stringify({ u: userId, s: sessionId, e: expires })).toString('base64url');
      return `${path}${path.includes('?') ? '&' : '?'}link=${claims}.${mac(claims, path)}`;
    },
    verify(url) {
      const linked = LINKED_URL.exec(url);
      if (!linked) return hasLinkParameter(url) ? 'invalid' : null;
      const [, path, claims, signature] = linked as unknown as [string, string, string, string];
      const expected = Buffer.from(mac(claims, path));
      const given = Buffer.from(signature);
      if (!isLinkable(path) || given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      const { u, s, e } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
        u: number;
        s: string;
        e: number;
      };
      return now() / 1000 > e ? 'expired' : { userId: u, sessionId: s };
    },
  };
}
