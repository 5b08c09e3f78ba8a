import '@testing-library/jest-dom';
import { cleanup } from '@testing-library/react';
import { resetSessionMemory } from '@/api/baseQuery';
import { installMatchMedia, resetMedia } from './media';
import { server } from './server';

installMatchMedia();

// antd measures elements with these; jsdom has neither.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = () => {};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  resetMedia();
  resetSessionMemory();
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
