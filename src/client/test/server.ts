import { setupServer } from 'msw/node';

/** The network, mocked at the HTTP layer: each test installs the handlers it needs with server.use. */
export const server = setupServer();

export const API = 'http://shop.test/api/v1';
