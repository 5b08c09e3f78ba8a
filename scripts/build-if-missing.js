// `npm start` serves the built storefront; build it first on a fresh clone.
const { existsSync } = require('node:fs');
const { execSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const built = path.join(root, 'dist');
// Resolved as the server resolves it (src/server/config.ts): relative to the project, or absolute.
const storefront = path.resolve(root, process.env.STOREFRONT_DIR || 'dist');
const index = path.join(storefront, 'index.html');
if (existsSync(index)) {
  console.log(`Storefront build found (${path.relative(process.cwd(), index)}); run \`npm run build\` to rebuild.`);
} else if (storefront !== built) {
  // `npm run build` writes dist/, so building cannot fill another folder.
  console.error(
    `STOREFRONT_DIR is ${storefront}, which has no index.html: copy a build there (\`npm run build\` writes dist/) or unset STOREFRONT_DIR.`,
  );
  process.exit(1);
} else {
  console.log('No storefront build yet: building it once (about a minute)...');
  execSync('webpack --mode production', { stdio: 'inherit', env: process.env });
}
