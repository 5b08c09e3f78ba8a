// `npm start` serves the built storefront; build it first on a fresh clone.
const { existsSync } = require('node:fs');
const { execSync } = require('node:child_process');
const path = require('node:path');

const index = path.join(__dirname, '..', process.env.STOREFRONT_DIR || 'dist', 'index.html');
if (existsSync(index)) {
  console.log(`Storefront build found (${path.relative(process.cwd(), index)}); run \`npm run build\` to rebuild.`);
} else {
  console.log('No storefront build yet: building it once (about a minute)...');
  execSync('webpack --mode production', { stdio: 'inherit', env: process.env });
}
