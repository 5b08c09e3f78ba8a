import { loadConfig } from './config';

describe('PUBLIC_URL', () => {
  it('is the origin it names, or unset', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://Myagkiy-Opt.example/' }).publicUrl).toBe('https://myagkiy-opt.example');
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    'myagkiy-opt.example',
    'ftp://myagkiy-opt.example',
    'https://myagkiy-opt.example/shop',
    'https://x.example/?a=1',
  ])('refuses %s, which is not an http(s) origin', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
  });
});

describe('mail', () => {
  it('without SMTP_URL writes to DATA_DIR/mail, from no-reply at the shop’s domain', () => {
    const { mail } = loadConfig({ DATA_DIR: '/srv/shop', PUBLIC_URL: 'https://myagkiy-opt.ru' });
    expect(mail).toMatchObject({
      smtpUrl: null,
      dir: '/srv/shop/mail',
      from: '"Мягкий Опт" <noreply@myagkiy-opt.ru>',
      managerEmails: [],
      contactEmail: 'opt@myagkiy-opt.example',
    });
  });

  it('reads SMTP_URL, MAIL_FROM, MANAGER_EMAILS and CONTACT_EMAIL', () => {
    const { mail } = loadConfig({
      SMTP_URL: 'smtps://shop:secret@smtp.example:465',
      MAIL_FROM: 'Магазин <shop@example.com>',
      MANAGER_EMAILS: ' Boss@Example.com, ,sales@example.com ',
      CONTACT_EMAIL: 'help@example.com',
    });
    expect(mail).toMatchObject({
      smtpUrl: 'smtps://shop:secret@smtp.example:465',
      from: 'Магазин <shop@example.com>',
      managerEmails: ['boss@example.com', 'sales@example.com'],
      contactEmail: 'help@example.com',
    });
  });

  it.each([
    ['SMTP_URL', 'https://smtp.example'],
    ['SMTP_URL', 'smtp.example:587'],
    ['MANAGER_EMAILS', 'boss@example.com, not-an-address'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('JWT_SECRET', () => {
  const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://myagkiy-opt.example' };

  it('in production, one shorter than 32 bytes is refused with what to do', () => {
    for (const secret of ['x', 'ж'.repeat(15), 'a'.repeat(31)]) {
      expect(() => loadConfig({ ...production, JWT_SECRET: secret })).toThrow(
        /JWT_SECRET must be at least 32 bytes in production, got \d+; leave it unset/,
      );
    }
  });

  it('in production, 32 bytes or more are taken, counted as UTF-8 bytes, and unset stays generated', () => {
    expect(loadConfig({ ...production, JWT_SECRET: 'a'.repeat(32) }).jwtSecret).toBe('a'.repeat(32));
    // 16 Cyrillic letters are 32 bytes.
    expect(loadConfig({ ...production, JWT_SECRET: 'ж'.repeat(16) }).jwtSecret).toBe('ж'.repeat(16));
    expect(loadConfig(production).jwtSecret).toBeUndefined();
  });

  it('outside production a short one still starts a development server', () => {
    expect(loadConfig({ JWT_SECRET: 'dev' }).jwtSecret).toBe('dev');
  });
});

describe('connection limits', () => {
  it('have defaults, in milliseconds', () => {
    expect(loadConfig({}).connectionLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 1000,
    });
  });

  it('are read from the environment in seconds', () => {
    expect(
      loadConfig({
        HEADERS_TIMEOUT_SECONDS: '5',
        REQUEST_TIMEOUT_SECONDS: '30',
        IDLE_TIMEOUT_SECONDS: '20',
        KEEP_ALIVE_TIMEOUT_SECONDS: '65',
        MAX_CONNECTIONS: '200',
      }).connectionLimits,
    ).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 20_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 200,
    });
  });

  it.each([
    [{ REQUEST_TIMEOUT_SECONDS: '0' }, /REQUEST_TIMEOUT_SECONDS must be a whole number ≥ 1/],
    [{ MAX_CONNECTIONS: 'many' }, /MAX_CONNECTIONS must be a whole number ≥ 1/],
    [{ HEADERS_TIMEOUT_SECONDS: '90', REQUEST_TIMEOUT_SECONDS: '60' }, /must not exceed REQUEST_TIMEOUT_SECONDS/],
  ])('refuse %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('buyer limits and reservations', () => {
  it('default to 3 unpaid orders (20 proven), 50 orders a day, half a variant’s stock per order and for the unproven together, 20 addresses, 20 legal entities, 5 000 cart lines, 30 quick-order imports in 10 minutes, 120 h (24 h unproven), e-mail confirmed', () => {
    const config = loadConfig({});
    expect(config.buyerLimits).toEqual({
      maxUnpaidOrders: 3,
      maxUnpaidOrdersTrusted: 20,
      maxOrdersPerDay: 50,
      maxStockSharePercent: 50,
      unprovenStockSharePercent: 50,
      maxAddresses: 20,
      maxLegalEntities: 20,
      maxCartLines: 5000,
      quickOrderImports: { max: 30, windowMs: 600_000 },
    });
    expect(config.reservation).toEqual({ hours: 120, unprovenHours: 24, sweepSeconds: 300 });
    expect(config.requireEmailConfirmation).toBe(true);
  });

  it('are read from the environment', () => {
    const config = loadConfig({
      MAX_UNPAID_ORDERS: '5',
      MAX_UNPAID_ORDERS_TRUSTED: '40',
      MAX_ORDERS_PER_DAY: '10',
      MAX_STOCK_SHARE_PERCENT: '100',
      UNPROVEN_STOCK_SHARE_PERCENT: '30',
      MAX_ADDRESSES: '3',
      MAX_LEGAL_ENTITIES: '5',
      MAX_CART_LINES: '1000',
      QUICK_ORDER_IMPORT_LIMIT: '5',
      QUICK_ORDER_IMPORT_WINDOW_SECONDS: '60',
      RESERVATION_HOURS: '72',
      RESERVATION_HOURS_UNPROVEN: '12',
      RESERVATION_SWEEP_SECONDS: '60',
      REQUIRE_EMAIL_CONFIRMATION: 'false',
    });
    expect(config.buyerLimits).toEqual({
      maxUnpaidOrders: 5,
      maxUnpaidOrdersTrusted: 40,
      maxOrdersPerDay: 10,
      maxStockSharePercent: 100,
      unprovenStockSharePercent: 30,
      maxAddresses: 3,
      maxLegalEntities: 5,
      maxCartLines: 1000,
      quickOrderImports: { max: 5, windowMs: 60_000 },
    });
    expect(config.reservation).toEqual({ hours: 72, unprovenHours: 12, sweepSeconds: 60 });
    expect(config.requireEmailConfirmation).toBe(false);
  });

  it.each([
    [{ MAX_STOCK_SHARE_PERCENT: '0' }, /MAX_STOCK_SHARE_PERCENT must be a whole number from 1 to 100/],
    [{ MAX_STOCK_SHARE_PERCENT: '101' }, /MAX_STOCK_SHARE_PERCENT must be a whole number from 1 to 100/],
    [{ MAX_UNPAID_ORDERS: '0' }, /MAX_UNPAID_ORDERS must be a whole number ≥ 1/],
    [{ QUICK_ORDER_IMPORT_LIMIT: '0' }, /QUICK_ORDER_IMPORT_LIMIT must be a whole number ≥ 1/],
    [{ RESERVATION_HOURS: '1.5' }, /RESERVATION_HOURS must be a whole number ≥ 1/],
    [{ UNPROVEN_STOCK_SHARE_PERCENT: '0' }, /UNPROVEN_STOCK_SHARE_PERCENT must be a whole number from 1 to 100/],
    [{ RESERVATION_HOURS_UNPROVEN: '0' }, /RESERVATION_HOURS_UNPROVEN must be a whole number ≥ 1/],
    [{ REQUIRE_EMAIL_CONFIRMATION: 'no' }, /REQUIRE_EMAIL_CONFIRMATION must be true or false/],
    [{ RESERVATION_SWEEP_SECONDS: '100000' }, /RESERVATION_SWEEP_SECONDS must be a whole number from 1 to 86400/],
  ])('refuse %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('REFRESH_GRACE_SECONDS', () => {
  it('is 20 by default; 0 turns the grace off; a negative or fractional one is refused', () => {
    expect(loadConfig({}).refreshGraceSeconds).toBe(20);
    expect(loadConfig({ REFRESH_GRACE_SECONDS: '0' }).refreshGraceSeconds).toBe(0);
    expect(loadConfig({ REFRESH_GRACE_SECONDS: '30' }).refreshGraceSeconds).toBe(30);
    expect(() => loadConfig({ REFRESH_GRACE_SECONDS: '-1' })).toThrow(/REFRESH_GRACE_SECONDS/);
    expect(() => loadConfig({ REFRESH_GRACE_SECONDS: '1.5' })).toThrow(/REFRESH_GRACE_SECONDS/);
  });
});

describe('shutdown drain', () => {
  it('is off unless SHUTDOWN_DRAIN_SECONDS says how long, in whole seconds', () => {
    expect(loadConfig({}).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '15' }).shutdownDrainMs).toBe(15_000);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS must be a whole number ≥ 0/,
    );
  });
});

describe('access log', () => {
  it('samples one in 100 anonymous catalogue reads unless ACCESS_LOG_SAMPLE says otherwise (1: every one)', () => {
    expect(loadConfig({}).accessLogSample).toBe(100);
    expect(loadConfig({ ACCESS_LOG_SAMPLE: '1' }).accessLogSample).toBe(1);
    expect(() => loadConfig({ ACCESS_LOG_SAMPLE: '0' })).toThrow(/ACCESS_LOG_SAMPLE must be a whole number ≥ 1/);
  });
});

describe('metrics', () => {
  it('are served nowhere by default; METRICS_PORT on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).toEqual({ port: null, host: '127.0.0.1', token: null });
    expect(loadConfig({ METRICS_PORT: '9100' }).metrics).toEqual({ port: 9100, host: '127.0.0.1', token: null });
    expect(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: '10.0.0.11' }).metrics.host).toBe('10.0.0.11');
    for (const internal of [
      '172.31.255.1',
      '192.168.1.5',
      '100.64.0.9',
      '::1',
      '::ffff:10.1.2.3',
      'fd12::5',
      '0.0.0.0',
      // 127.0.0.1 and 10.0.0.1 as inet_aton reads them.
      '2130706433',
      '0x0a.0.0.1',
      'fe80::1%eth0',
      'metrics.internal',
    ]) {
      expect(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: internal }).metrics.host).toBe(internal);
    }
    expect(loadConfig({ METRICS_TOKEN: 'a-token-of-16-ch' }).metrics.token).toBe('a-token-of-16-ch');
  });

  it.each([
    [{ METRICS_PORT: '65536' }, /METRICS_PORT must be a whole number from 0 to 65535/],
    [{ METRICS_PORT: 'ninety' }, /METRICS_PORT must be a whole number/],
    [{ METRICS_PORT: '3000' }, /METRICS_PORT must differ from PORT/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '203.0.113.7' }, /METRICS_HOST 203.0.113.7 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '2001:db8::7' }, /METRICS_HOST 2001:db8::7 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '172.32.0.1' }, /METRICS_HOST 172.32.0.1 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '::ffff:8.8.8.8' }, /METRICS_HOST ::ffff:8.8.8.8 is a public address/],
    // What the system's resolver takes for 8.8.8.8 (inet_aton's forms), as the listener would.
    [{ METRICS_PORT: '9100', METRICS_HOST: '134744072' }, /METRICS_HOST 134744072 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '0x8.8.8.8' }, /METRICS_HOST 0x8.8.8.8 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '010.8.8.8' }, /METRICS_HOST 010.8.8.8 is a public address/],
    [{ METRICS_PORT: '9100', METRICS_HOST: '::ffff:808:808' }, /METRICS_HOST ::ffff:808:808 is a public address/],
    [{ PORT: '8080', METRICS_PORT: '8080' }, /METRICS_PORT must differ from PORT/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters, got 5/],
  ])('refuse %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
