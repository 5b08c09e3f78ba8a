/** The password of every buyer the tests sign up, in-process (test-app) or over HTTP (server-process). */
export const TEST_PASSWORD = 'correct horse battery';
