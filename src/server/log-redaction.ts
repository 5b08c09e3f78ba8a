// What the log must never hold: passwords and tokens, wherever a client puts them, and the e-mail
// that /auth calls carry in their query (SPEC §7: register takes both in the URL).

/**
 * Names of fields and query parameters that can hold a secret: password, new_password,
 * access_token, … and a signed download's `link` (however suffixed: `link[]`), which opens its
 * file for 90 seconds.
 */
const SECRET_NAME = /pass|pwd|secret|token|credential|^link\b/i;
/** Whether a whole query may hold such a name: the quick look before its pairs are read. */
const MAY_HOLD_SECRET = /pass|pwd|secret|token|credential|link/i;

const SECRET_FIELDS = [
  'password',
  'current_password',
  'new_password',
  'token',
  'access_token',
  'refresh_token',
  'authorization',
];

/**
 * pino's redaction paths: the request's credentials in any line that has them, and the fields
 * above at the top of a logged object and two levels into it (a body, a query, an error's data).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

const AUTH_PATH = '/api/v1/auth';
/** The route of a company's secret feed (routes/feed), and how its address is logged. */
const SECRET_FEED_ROUTE = '/api/v1/feed/:token.yml';
const SECRET_FEED_LOGGED = '/api/v1/feed/[redacted].yml';

/** Decoded, its slashes collapsed, lower-cased: the path as a router lenient in any of these would read it. */
function normalisedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Undecodable: judged as written.
  }
  return decoded.replace(/[/\\]+/g, '/').toLowerCase();
}

/**
 * The URL as logged. A company's secret feed address is masked whole. Any /auth call (by its matched route, or by its path however spelled) loses
 * its whole query; every other keeps its query with the value of each secret-named parameter
 * masked. The query is split on `;` as well as `&`, so that no spelling hides a parameter.
 */
export function loggableUrl(url: string, routeUrl?: string): string {
  // A company's secret feed address has its token in the path (a marketplace's importer takes an
  // address, nothing else): the whole address is the secret, so none of it is logged.
  if (routeUrl === SECRET_FEED_ROUTE) return SECRET_FEED_LOGGED;
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const path = url.slice(0, queryAt);
  if (routeUrl?.startsWith(AUTH_PATH)) return path;
  // A route matched by its own pattern (not a catch-all such as the storefront's) is no /auth call,
  // however its path was spelled: the spelling matters only where no such route decided (a 404, a
  // page), and decoding every catalogue read's path cost 2% of its CPU (docs/performance.md).
  const decidedByRoute = routeUrl !== undefined && !routeUrl.includes('*');
  if (!decidedByRoute && normalisedPath(path).startsWith(AUTH_PATH)) return path;
  const query = url.slice(queryAt + 1);
  // The common case, a catalogue read's skip and limit, without parsing: no name could be a secret's.
  if (!query.includes('%') && !MAY_HOLD_SECRET.test(query)) return url;
  const pairs = query.split(/[&;]/).map((pair) => {
    const [name] = [...new URLSearchParams(pair).keys()];
    return name !== undefined && SECRET_NAME.test(name) ? `${pair.split('=', 1)[0]}=[redacted]` : pair;
  });
  return `${path}?${pairs.join('&')}`;
}
