import '@testing-library/jest-dom';
import { cleanup, configure } from '@testing-library/react';
import { resetSessionMemory } from '@/api/baseQuery';
import { withoutSessionCookie } from './fixtures';
import { installMatchMedia, resetMedia } from './media';
import { server } from './server';

installMatchMedia();

// Pages built with antd load it lazily (as in the browser); the first load in a busy CI worker can
// take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

// antd measures elements with these; jsdom has neither.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// What renders as the shopper scrolls near it (useNearViewport) is near at once here, as in a tall window.
class IntersectionObserverStub {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element): void {
    this.callback(
      [{ target, isIntersecting: true } as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
  unobserve(): void {}
  disconnect(): void {}
}
window.IntersectionObserver ??= IntersectionObserverStub as unknown as typeof IntersectionObserver;
window.scrollTo = () => {};

// antd's Form (rc-field-form's watcher batching) posts to a MessageChannel, which jsdom lacks. Node's
// own one would keep the test worker alive, so this one delivers the message in a timer instead.
class MessageChannelStub {
  readonly port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
  readonly port2 = {
    postMessage: (data: unknown) => {
      setTimeout(() => this.port1.onmessage?.({ data }), 0);
    },
  };
}
globalThis.MessageChannel ??= MessageChannelStub as unknown as typeof MessageChannel;

// antd measures the scrollbar with getComputedStyle(element, '::-webkit-scrollbar') and role queries
// read ::before/::after; jsdom has no pseudo-elements and logs "Not implemented" for each call, so
// the pseudo-element is dropped.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  resetMedia();
  resetSessionMemory();
  localStorage.clear();
  sessionStorage.clear();
  withoutSessionCookie();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
