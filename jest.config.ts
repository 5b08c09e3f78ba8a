import type { Config } from 'jest';

// Both halves compile to CommonJS with ts-jest, each with its own tsconfig (the client's has the DOM,
// the server's has not). Packages that ship ES modules only (typebox, content-disposition) are loaded
// by Node's own require(esm), which Jest uses when started with --experimental-vm-modules (see the
// test script in package.json).
const transform = (half: 'client' | 'server'): Config['transform'] => ({
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: `tsconfig.jest-${half}.json` }],
});

/**
 * Real server processes over HTTP: kill -9, PostgreSQL stopped under load, SIGTERM under load.
 * It stops the machine's PostgreSQL cluster for a few seconds, so it exists only for
 * `npm run test:reliability` (which sets RELIABILITY_SUITE=1): never in `npm test` or a bare `jest`.
 */
const reliability: NonNullable<Config['projects']>[number] = {
  displayName: 'reliability',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/server/reliability'],
  transform: transform('server'),
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};

/**
 * The server's suites on one database: `app.inject` against in-memory PGlite, or against a fresh
 * PostgreSQL database per suite on the TEST_DATABASE_URL server (test/server/helpers/test-app.ts).
 */
function serverProject(database: 'embedded' | 'postgres'): NonNullable<Config['projects']>[number] {
  return {
    displayName: database === 'embedded' ? 'server' : 'server-postgres',
    testEnvironment: 'node',
    // fuzz/: the OpenAPI-driven fuzzer's short run (its long one is `npm run fuzz`). src/shared's
    // suites touch no database, so they run once.
    roots: [
      '<rootDir>/src/server',
      ...(database === 'embedded' ? ['<rootDir>/src/shared'] : []),
      '<rootDir>/test/server',
      '<rootDir>/fuzz',
    ],
    // The process-level suite has its own project and script (npm run test:reliability).
    testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/server/reliability/'],
    setupFiles: [`<rootDir>/test/server/helpers/on-${database}-database.ts`],
    transform: transform('server'),
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  };
}

const config: Config = {
  // Suites run in worker processes, each replaced once it holds more than this after a suite: one
  // process running every suite in turn grew to the 4 GB heap limit (the modules of each suite are
  // not all given back) and was killed. Two workers on a two-core machine: with one, Jest runs the
  // suites in its own process, which it never replaces.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
  // Not a speed check (those are in bench/): room for a test that types into a form in jsdom or
  // hashes a few passwords while a two-core CI machine is busy with the other suites.
  testTimeout: 15_000,
  projects: [
    // The server's suites on the embedded database always, and once more on PostgreSQL when
    // TEST_DATABASE_URL names one: the shop runs on both, so every route is tested on both.
    serverProject('embedded'),
    ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
    {
      displayName: 'client',
      testEnvironment: 'jest-fixed-jsdom',
      // msw picks its Node build in jsdom only with the default export conditions.
      testEnvironmentOptions: { customExportConditions: [''], url: 'http://shop.test/' },
      roots: ['<rootDir>/src/client'],
      transform: transform('client'),
      moduleNameMapper: {
        '^@/(.*)$': '<rootDir>/src/client/$1',
        '^@shared/(.*)$': '<rootDir>/src/shared/$1',
        '\\.css$': '<rootDir>/src/client/test/styleStub.ts',
      },
      setupFiles: ['<rootDir>/src/client/test/env.ts'],
      setupFilesAfterEnv: ['<rootDir>/src/client/test/setup.ts'],
      moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    },
    ...(process.env.RELIABILITY_SUITE === '1' ? [reliability] : []),
  ],
};

export default config;
