import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../app';
import { loadConfig, type AppConfig } from '../config';

/**
 * A fresh database per test file: in-memory PGlite by default, or a new database created on
 * the PostgreSQL server of TEST_DATABASE_URL (and dropped afterwards), so suites never share rows.
 */
async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shop_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  close(): Promise<void>;
}

export const usesPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres = adminUrl ? await freshPostgresDatabase(adminUrl) : null;
  const config: AppConfig = {
    ...loadConfig({}),
    databaseUrl: postgres?.url,
    dataDir: null,
    storefrontDir: null,
    logLevel: 'silent',
    loginRateLimitPerClient: { max: 10_000, windowMs: 60_000 },
    loginRateLimitPerAccount: { max: 1_000, windowMs: 60_000 },
    ...overrides,
  };
  const app = await buildApp(config);
  await app.ready();
  return {
    app,
    config,
    async close() {
      await app.close();
      await postgres?.drop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface Shopper {
  id: number;
  email: string;
  token: string;
  headers: { authorization: string };
}

let counter = 0;
/** Registers and logs in a new user through the public API, as the storefront does. */
export async function signUp(app: FastifyInstance, email = `buyer${++counter}-${randomBytes(3).toString('hex')}@example.com`): Promise<Shopper> {
  const password = 'correct horse battery';
  const registered = await app.inject({ method: 'POST', url: '/api/v1/auth/register', query: { email, password } });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: { username: email, password }, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const token = (login.json() as { access_token: string }).access_token;
  return { id: (registered.json() as { id: number }).id, email, token, headers: bearer(token) };
}

export const json = <T>(response: LightMyRequestResponse) => response.json() as T;
