import path from 'node:path';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

export interface AppConfig {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files; `null` keeps the database in memory (tests). */
  dataDir: string | null;
  /** Fixed signing secret; when absent one is generated once and stored in the database. */
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshIdleSeconds: number;
  refreshMaxSeconds: number;
  /** Fastify's trustProxy: false (X-Forwarded-For ignored), true, or the proxy addresses of TRUST_PROXY. */
  trustProxy: boolean | string[];
  /**
   * The shop's public origin (PUBLIC_URL, e.g. https://myagkiy-opt.ru) for the absolute addresses in
   * pages' link-preview tags, the sitemap and robots.txt; `null`: each request's own (publicOrigin).
   */
  publicUrl: string | null;
  /** Origins besides the shop's own that may call refresh and logout (comma-separated ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  loginRateLimitPerAccount: RateLimitConfig;
  loginRateLimitPerClient: RateLimitConfig;
  bodyLimitBytes: number;
  imageDir: string;
  /** The built storefront; `null` serves the API only. */
  storefrontDir: string | null;
  logLevel: string;
  seedDemoCatalogue: boolean;
}

const projectRoot = path.resolve(__dirname, '..', '..');

class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  }
  return value;
}

function trustProxy(raw: string | undefined): AppConfig['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}

/** An http(s) origin, without a path: the storefront is served from the root. */
function publicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const url = URL.parse(raw);
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) origin such as https://shop.example, got "${raw}"`);
  }
  return url.origin;
}

const DAY = 24 * 60 * 60;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const production = env.NODE_ENV === 'production';
  return {
    host: env.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    port: integer(env, 'PORT', 3000, 0),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(projectRoot, env.DATA_DIR || 'data'),
    jwtSecret: env.JWT_SECRET || undefined,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 15 * 60),
    refreshIdleSeconds: integer(env, 'REFRESH_IDLE_DAYS', 30) * DAY,
    refreshMaxSeconds: integer(env, 'REFRESH_MAX_DAYS', 90) * DAY,
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicUrl: publicUrl(env.PUBLIC_URL),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    loginRateLimitPerAccount: {
      max: integer(env, 'LOGIN_LIMIT_PER_ACCOUNT', 10),
      windowMs: integer(env, 'LOGIN_LIMIT_WINDOW_SECONDS', 15 * 60) * 1000,
    },
    loginRateLimitPerClient: {
      max: integer(env, 'LOGIN_LIMIT_PER_CLIENT', 50),
      windowMs: integer(env, 'LOGIN_LIMIT_WINDOW_SECONDS', 15 * 60) * 1000,
    },
    bodyLimitBytes: 1024 * 1024,
    imageDir: path.resolve(projectRoot, env.IMAGE_DIR || 'src/server/assets/images'),
    storefrontDir: path.resolve(projectRoot, env.STOREFRONT_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    seedDemoCatalogue: env.SEED_DEMO_CATALOGUE !== 'false',
  };
}
