import pino from 'pino';
import { loggableUrl, REDACTED_PATHS } from './log-redaction';

describe('loggableUrl', () => {
  it.each([
    '/api/v1/auth/register?email=a%40b.ru&password=hunter2',
    '//api/v1/auth/register?email=a%40b.ru&password=hunter2',
    '/API/v1/Auth/register?email=a%40b.ru&password=hunter2',
    '/api/v1//auth/register?email=a%40b.ru&password=hunter2',
    '/api/v1/%61uth/register?email=a%40b.ru&password=hunter2',
    '/api\\v1/auth/token?username=a%40b.ru&password=hunter2',
  ])('cuts the whole query of an /auth call however its path is spelled: %s', (url) => {
    expect(loggableUrl(url)).toBe(url.split('?')[0]);
  });

  it('cuts the query of a call whose matched route is under /auth', () => {
    expect(loggableUrl('/x?email=a%40b.ru', '/api/v1/auth/register')).toBe('/x');
  });

  it('judges the spelling where only a catch-all route matched (the storefront pages)', () => {
    expect(loggableUrl('/API/v1/Auth/register?email=a%40b.ru', '/*')).toBe('/API/v1/Auth/register');
  });

  it('leaves the spelling to a route that matched by its own pattern: it is no /auth call', () => {
    const url = '/api/v1/products/%61uth?limit=8';
    expect(loggableUrl(url, '/api/v1/products/:art')).toBe(url);
  });

  it.each([
    ['/api/v1/products/?password=hunter2&skip=0', '/api/v1/products/?password=[redacted]&skip=0'],
    ['/anything?limit=8&new_password=hunter2', '/anything?limit=8&new_password=[redacted]'],
    ['/anything?CURRENT_PASSWORD=hunter2', '/anything?CURRENT_PASSWORD=[redacted]'],
    ['/anything?pass%77ord=hunter2', '/anything?pass%77ord=[redacted]'],
    ['/anything?a=1;access_token=hunter2', '/anything?a=1&access_token=[redacted]'],
    ['/anything?refresh_token=hunter2&token=hunter2', '/anything?refresh_token=[redacted]&token=[redacted]'],
    ['/anything?passwd', '/anything?passwd=[redacted]'],
    ['/api/v1/cart/7/marketplace-kit?link=eyJ1Ijo3fQ.c2lnbmF0dXJl', '/api/v1/cart/7/marketplace-kit?link=[redacted]'],
    [
      '/api/v1/cart/7/marketplace-kit?link[]=eyJ1Ijo3fQ.c2lnbmF0dXJl',
      '/api/v1/cart/7/marketplace-kit?link[]=[redacted]',
    ],
    ['/api/v1/admin/products?q=blink', '/api/v1/admin/products?q=blink'],
    ['/api/v1/admin/products?linkage=1', '/api/v1/admin/products?linkage=1'],
  ])('masks the secrets of any other query: %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it('masks the token of a company’s secret feed address, which is in its path', () => {
    const url = '/api/v1/feed/c2VjcmV0LXRva2VuLW9mLWZvcnR5LXRocmVlLWNoYXJzMTI.yml?x=1';
    expect(loggableUrl(url, '/api/v1/feed/:token.yml')).toBe('/api/v1/feed/[redacted].yml');
    expect(loggableUrl('/api/v1/feed.yml', '/api/v1/feed.yml')).toBe('/api/v1/feed.yml');
  });

  it('leaves other queries and paths as they are', () => {
    for (const url of ['/api/v1/products/popular?limit=8&skip=0', '/catalog?category=%D0%9C', '/api/v1/cart/1', '/']) {
      expect(loggableUrl(url)).toBe(url);
    }
  });
});

describe('REDACTED_PATHS', () => {
  it('mask password- and token-named fields at the top of a line and two levels into it', () => {
    const lines: string[] = [];
    const logger = pino({ redact: REDACTED_PATHS }, { write: (line: string) => lines.push(line) });
    logger.info({
      password: 'secret-1',
      body: { current_password: 'secret-2', new_password: 'secret-3', email: 'kept@example.com' },
      err: { data: { access_token: 'secret-4', refresh_token: 'secret-5' } },
      req: { headers: { authorization: 'Bearer secret-6', cookie: 'refresh_token=secret-7' } },
    });
    expect(lines.join('')).not.toMatch(/secret-\d/);
    expect(lines.join('')).toContain('kept@example.com');
  });
});
