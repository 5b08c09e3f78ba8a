// The `server` project's suites run on the embedded database whatever the environment says: the
// `server-postgres` project runs them on TEST_DATABASE_URL (jest.config.ts). Each suite has its own
// copy of process.env, so this leaves the other project's suites alone.
delete process.env.TEST_DATABASE_URL;
