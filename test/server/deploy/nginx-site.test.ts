/**
 * The balancer's site as deploy/cluster.ts fills it in: the per-client request rates are in it
 * unless a benchmark asks for it without them (bench/scale.ts), and then only they are left out.
 */
import { renderNginxSite, type NginxSiteOptions } from '../../../deploy/cluster';

const SITE: NginxSiteOptions = {
  upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'],
  listen: '127.0.0.1:8080',
  storefrontDir: '/srv/myagkiy-opt/dist',
  brotliStatic: false,
};

const rateLimits = (site: string) => site.split('\n').filter((line) => /^\s*limit_req zone=/.test(line));

it('as deployed: every location passed to the servers (pictures aside) is rate-limited per client', () => {
  const site = renderNginxSite(SITE);
  expect(rateLimits(site).map((line) => line.trim())).toEqual([
    'limit_req zone=server_requests burst=100 nodelay;',
    'limit_req zone=credential_attempts burst=10 nodelay;',
    'limit_req zone=server_requests burst=100 nodelay;',
    'limit_req zone=server_requests burst=100 nodelay;',
    'limit_req zone=server_requests burst=100 nodelay;',
    'limit_req zone=server_requests burst=100 nodelay;',
  ]);
});

it("passes 1С's exchange its chunks unbuffered, up to EXCHANGE_FILE_LIMIT's default", () => {
  const site = renderNginxSite(SITE);
  const exchange = site.slice(site.indexOf('location = /1c_exchange {'));
  expect(exchange.slice(0, exchange.indexOf('}'))).toMatch(
    /client_max_body_size 101m;\s+proxy_request_buffering off;\s+limit_req zone=server_requests burst=100 nodelay;\s+proxy_pass http:\/\/myagkiy_opt;/,
  );
});

it('for a benchmark: without the per-client request rates, everything else as deployed', () => {
  const deployed = renderNginxSite(SITE);
  const unthrottled = renderNginxSite({ ...SITE, withoutRequestRateLimits: true });
  expect(rateLimits(unthrottled)).toEqual([]);
  const deployedWithoutThem = deployed
    .split('\n')
    .filter((line) => !rateLimits(deployed).includes(line))
    .join('\n');
  expect(unthrottled).toBe(deployedWithoutThem);
  expect(unthrottled).toContain('limit_conn client_connections 100;');
});

it("writes its own access log in its own format (the request masked) to Debian's log folder, or where told", () => {
  const server = (site: string) => site.slice(site.indexOf('server {'));
  expect(renderNginxSite(SITE)).toMatch(
    /log_format myagkiy_opt '[^;]*\$myagkiy_opt_logged_path\$myagkiy_opt_logged_query[^;]*;/,
  );
  expect(server(renderNginxSite(SITE))).toContain('access_log /var/log/nginx/myagkiy-opt.access.log myagkiy_opt;');
  expect(server(renderNginxSite({ ...SITE, accessLog: '/tmp/shop/access.log cluster' }))).toContain(
    'access_log /tmp/shop/access.log cluster;',
  );
  // What it masks is proven by real nginx: test/server/reliability/behind-nginx.test.ts.
});
