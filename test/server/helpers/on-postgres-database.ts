// The `server-postgres` project exists only with TEST_DATABASE_URL (jest.config.ts); a suite of it
// that found none would quietly run on the embedded database instead.
if (!process.env.TEST_DATABASE_URL) throw new Error('The server-postgres project needs TEST_DATABASE_URL');
