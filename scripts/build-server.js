// Compiles the API server to plain JavaScript in build/ (a fraction of a second), which `npm start` runs.
//
// Running the TypeScript through tsx at start cost the server ~30 MB of resident memory (its
// loader thread and the transpiled sources it keeps) and a `__name` call for every closure the
// server makes (esbuild's keepNames); docs/performance.md. Types are checked by `npm run
// typecheck` and the tests, not here: this only strips them, file by file.
const { cpSync, globSync, rmSync } = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const out = path.join(root, 'build');

// Tests run under jest, never from build/ (their helpers and suites live in test/, outside src/).
const isRuntimeSource = (file) => !file.endsWith('.test.ts');
const sources = globSync(['src/server/**/*.ts', 'src/shared/**/*.ts'], { cwd: root }).filter(isRuntimeSource);

rmSync(out, { recursive: true, force: true });
esbuild.buildSync({
  absWorkingDir: root,
  entryPoints: sources,
  // build/server/config.js sits as deep as src/server/config.ts, so paths the server resolves
  // from its own folder (the project root, the storefront, the images) are the same from both.
  outbase: 'src',
  outdir: out,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  logLevel: 'warning',
});
// The migrations are SQL that the server applies at start from beside its database module.
cpSync(path.join(root, 'src/server/db/migrations'), path.join(out, 'server/db/migrations'), { recursive: true });
