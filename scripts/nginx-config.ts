/**
 * `npm run nginx-config -- --listen 80 --storefront /srv/myagkiy-opt/dist 10.0.0.11:3000 10.0.0.12:3000`
 * prints the balancer's nginx site (deploy/nginx/myagkiy-opt.conf.template filled in) for the
 * given server processes, to put in /etc/nginx/sites-enabled/ on the balancer's machine.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BROTLI_STATIC_MODULE, renderNginxSite } from '../deploy/cluster';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  allowNegative: true,
  options: {
    listen: { type: 'string', default: '80' },
    storefront: { type: 'string', default: path.resolve(__dirname, '..', 'dist') },
    // Whether the balancer's nginx has the brotli static module; by default, whether this machine's has.
    brotli: { type: 'boolean', default: existsSync(BROTLI_STATIC_MODULE) },
  },
});

try {
  process.stdout.write(
    renderNginxSite({
      upstreams: positionals,
      listen: values.listen,
      storefrontDir: values.storefront,
      brotliStatic: values.brotli,
    }),
  );
} catch (error) {
  console.error(
    `${error instanceof Error ? error.message : error}\n` +
      'Usage: npm run nginx-config -- [--listen 80] [--storefront /abs/dist] [--brotli | --no-brotli] host:port [host:port...]',
  );
  process.exit(1);
}
