// The storefront's download budget: the home page's first load — the entry point plus
// the home page's own chunks — must stay within 200 KB of JS and CSS after gzip. Sizes are not
// noisy, so this runs in CI after the build: `npm run check:bundle`.
const { readFileSync } = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const BUDGET_BYTES = 200 * 1024;
const dist = path.join(__dirname, '..', process.env.STOREFRONT_DIR || 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, 'asset-manifest.json'), 'utf8'));

const gzipSize = (file) => zlib.gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const files = [...new Set([...manifest.main, ...manifest['page-home']])];
// The stylesheets count as much as the scripts (antd's build-time CSS is a first-load file): a
// manifest without them would make the sum look smaller than what the browser downloads.
if (!files.some((file) => file.endsWith('.css'))) {
  console.error(
    'No stylesheet in the home page first load: the asset manifest is missing the CSS, so the sum would be wrong',
  );
  process.exit(1);
}
const sizes = files.map((file) => [file, gzipSize(file)]);
const total = sizes.reduce((sum, [, size]) => sum + size, 0);

for (const [file, size] of sizes.sort((a, b) => b[1] - a[1]))
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  home page first load (gzip), budget ${BUDGET_BYTES / 1024} KB (${BUDGET_BYTES - total} bytes left)`,
);
if (total > BUDGET_BYTES) {
  console.error(`Over budget by ${total - BUDGET_BYTES} bytes`);
  process.exit(1);
}
