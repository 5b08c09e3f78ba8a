// ESLint flat config. CommonJS because package.json has no "type" (every .js here is CommonJS).
const fs = require('node:fs');
const path = require('node:path');
const { defineConfig } = require('eslint/config');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const reactHooks = require('eslint-plugin-react-hooks');
const prettier = require('eslint-config-prettier/flat');
const globals = require('globals');

const root = __dirname;
const at = (...segments) => path.join(root, ...segments);

/**
 * What each storefront feature deliberately offers to OTHER features (module names in
 * src/client/features/<feature>/, without extension). Everything else in a feature is private to
 * it: in particular its components, which only pages/ and app/ compose. We chose an explicit list
 * over "any non-.tsx file" so that widening a feature's surface is a one-line, reviewable change
 * here, and we need no barrel files (the team bans index.ts re-exports). A feature missing from
 * this list (a new one) exports nothing to other features until someone adds it.
 */
const featureExports = {
  addresses: ['addressesApi', 'formatAddress'],
  banners: ['bannersApi'],
  cart: ['cartApi', 'cartBulkApi', 'cartChannel', 'cartEditsSlice', 'useCartCount'],
  catalogue: ['catalogueApi', 'selectedCategorySlice'],
  checkout: ['parseItems'],
  company: ['companyApi', 'companyStanding'],
  colourMode: ['colourModeSlice', 'useIsDark'],
  orders: ['ordersApi'],
  product: [],
  requisites: ['requisitesApi', 'requisitesValues'],
  session: ['sessionSlice', 'authDialogSlice', 'authApi', 'sessionThunks', 'useLogout', 'orderLimits', 'formRules'],
};

const featuresDir = at('src/client/features');
const features = fs
  .readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// One zone per imported feature: every other feature may reach only its listed modules.
const featureZones = features.map((feature) => {
  const exported = featureExports[feature] ?? [];
  return {
    target: path.join(featuresDir, `!(${feature})`, '**'),
    from: path.join(featuresDir, feature, '**'),
    except: exported.map((name) => path.join(featuresDir, feature, `${name}.{ts,tsx}`)),
    message: exported.length
      ? `Feature "${feature}" offers other features only: ${exported.join(', ')} (featureExports in eslint.config.js). Compose its components in pages/ or app/.`
      : `Feature "${feature}" offers nothing to other features (featureExports in eslint.config.js). Compose its components in pages/ or app/.`,
  };
});

const architectureZones = [
  {
    target: at('src/client'),
    from: at('src/server'),
    message: 'The storefront never imports the server; share types and rules through src/shared.',
  },
  {
    target: at('src/server'),
    from: at('src/client'),
    message: 'The server never imports the storefront; share types and rules through src/shared.',
  },
  {
    target: at('src/shared'),
    from: [at('src/client'), at('src/server')],
    message: 'src/shared is imported by both halves and imports neither.',
  },
  {
    target: at('src'),
    from: at('scripts'),
    message: 'scripts/ holds tools run by hand (npm run …), outside the builds: the product never imports them.',
  },
  {
    target: [at('src/client/components'), at('src/client/api')],
    from: at('src/client/features'),
    message: 'components/ and api/ sit below features/: features use them, never the reverse.',
  },
  ...featureZones,
];

/**
 * The server's layers (docs/decisions.md, «Server layers held by lint»): routes translate HTTP;
 * services hold the rules and run the transactions; repositories are the SQL; db/ is the
 * connection, schema, migrations and NOTIFY channels; domain/ is pure and imported by anyone; mail/
 * and invoices/ are output formats (letters, the invoice's PDF) and commerceml/ 1С's exchange format
 * (read and written), all used by services; plugins wire
 * the app; cli/ are the managers' commands.
 */
const server = (...segments) => at('src/server', ...segments);
const serverZones = [
  {
    target: server('domain'),
    from: [
      server('routes'),
      server('plugins'),
      server('services'),
      server('repositories'),
      server('db'),
      server('mail'),
      server('invoices'),
      server('commerceml'),
      server('cli'),
      server('api-error.ts'),
    ],
    message: "domain/ is pure: the shop's rules and their errors, with no HTTP, SQL or output format.",
  },
  {
    target: [
      server('services'),
      server('repositories'),
      server('db'),
      server('mail'),
      server('invoices'),
      server('commerceml'),
    ],
    from: [server('routes'), server('plugins'), server('cli'), server('api-error.ts')],
    message:
      'Below the routes there is no HTTP: services and repositories throw domain errors (domain/domain-errors.ts), which the error handler answers.',
  },
  {
    target: [server('repositories'), server('db'), server('mail'), server('invoices'), server('commerceml')],
    from: server('services'),
    message: 'Services use repositories, mail/, invoices/ and commerceml/, never the reverse.',
  },
  {
    target: [server('mail'), server('invoices'), server('commerceml')],
    from: [server('repositories'), server('db')],
    message: 'mail/, invoices/ and commerceml/ draw or read what services give them: they read no database.',
  },
  {
    target: [server('repositories'), server('db')],
    from: [server('mail'), server('invoices'), server('commerceml')],
    message: 'Repositories return rows; the letters and documents are made from them by services.',
  },
  {
    target: server('db/!(seed)/**'),
    from: server('repositories'),
    message: 'db/ is the connection, schema and channels the repositories use, never the reverse.',
  },
  {
    target: [server('routes'), server('services')],
    from: server('db/!(database).ts'),
    message:
      "SQL, the schema and the NOTIFY channels are the repositories' (a service takes only the handle and its transactions).",
  },
  {
    target: server('routes'),
    from: server('repositories'),
    message: 'Routes reach repositories through app.repositories and rules through services, never by importing them.',
  },
  {
    target: server('invoices'),
    from: server('mail'),
    message: 'invoices/ draws the document; letters (mail/) may name it, not the reverse.',
  },
  {
    target: [
      server('plugins'),
      server('services'),
      server('repositories'),
      server('db'),
      server('domain'),
      server('mail'),
      server('invoices'),
      server('cli'),
    ],
    from: server('routes'),
    message: 'Only app.ts registers the routes: nothing else imports them.',
  },
];

// Test code: suites anywhere, the client's test helpers, and the top-level test/ tree (the
// server's helpers, the attack, fuzz and process-level suites).
const testFiles = ['**/*.test.{ts,tsx}', 'src/client/test/**', 'test/**', 'fuzz/**'];
const testHelperZone = {
  target: [at('src'), at('scripts'), at('deploy')],
  from: [at('src/client/test'), at('test')],
  message: 'Production code never imports test helpers.',
};

/*
 * Type-aware rules (recommendedTypeChecked) work on TypeScript 6.0 but were left out: on this
 * 2-core machine they took `npx eslint .` from 7 s to 33 s, and their 171 extra findings were
 * mostly any-typed test data, redundant assertions, async functions without await, and React/Jest
 * idioms (async onClick handlers, react-router's navigate() promise, expect(mock.method)).
 * `npm run typecheck` already does the type checking.
 */
module.exports = defineConfig(
  {
    ignores: [
      'dist/**',
      'build/**',
      'data/**',
      'coverage/**',
      'e2e-artifacts/**',
      'bench/results/**',
      'tmp-scratch/**',
      'src/server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `const { owner: _owner, ...rest } = x` is how the code omits a field.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x skips .ts/.tsx files when it follows imports, and no-cycle sees nothing.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: at('tsconfig.json'), // the solution file: the resolver follows its references
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: [...architectureZones, ...serverZones, testHelperZone] },
      ],
    },
  },
  {
    // Tests may use test helpers; every other boundary still holds for them.
    files: testFiles,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: architectureZones }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
  },
  {
    files: [
      'src/server/**/*.ts',
      'test/**/*.ts',
      'fuzz/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
      'deploy/**/*.ts',
      '*.ts',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter's pattern, so a
    // fixture without any must still destructure `{}`.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
