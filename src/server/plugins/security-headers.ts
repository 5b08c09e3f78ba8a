import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { REFRESH_COOKIE } from './authentication';

const AUTH_ROUTES = '/api/v1/auth';

/**
 * helmet's headers, worked out once. @fastify/helmet runs helmet(options) again for every request,
 * re-parsing the whole policy: a tenth of the CPU of a cached catalogue read. These headers do not
 * depend on the request, so they are computed at start and copied onto each answer.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * What an API answer needs (OWASP's REST security cheat sheet): JSON is never rendered as a page,
 * so the document headers below (frames, referrers, XSS filters, opener isolation) do nothing for
 * it, and copying all twelve cost a cached catalogue read a quarter of its CPU.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
};

/** The API's calls, as opposed to the storefront's pages and files and the API's own docs page. */
const isApiCall = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

const REFRESH_COOKIE_SENT = new RegExp(`(?:^|;)\\s*${REFRESH_COOKIE}=`);

/**
 * Whether the answer may be about one person: the request carries an access token or the refresh
 * cookie, or it is an /auth call (tokens, the user, a registration). Such an answer must not be
 * kept by the browser or any cache on the way.
 */
function isPersonal(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined ||
    REFRESH_COOKIE_SENT.test(request.headers.cookie ?? '') ||
    request.routeOptions.url?.startsWith(AUTH_ROUTES) === true
  );
}

async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const documentHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its CSS-in-JS into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // The shop may run on plain http (localhost, a LAN): never rewrite its requests to https.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiCall(request.url) ? API_HEADERS : documentHeaders);
    // Set before the handler: a route that says its own caching replaces it. Only public answers,
    // the same for everyone, do (the catalogue, images): the storefront sends its token with
    // every call, and a signed-in shopper's catalogue reads keep their ETag revalidation.
    if (isPersonal(request)) reply.header('cache-control', 'no-store');
    done();
  });
}

export default fp(registerSecurityHeaders, { name: 'security-headers' });
