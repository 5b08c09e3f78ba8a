/**
 * A window.matchMedia that answers width and colour-scheme queries from a viewport the test sets,
 * so antd's breakpoints and the 'system' colour mode can be exercised in jsdom.
 */
type Listener = (event: { matches: boolean; media: string }) => void;

const viewport = { width: 1440, prefersDark: false };
const queries = new Set<{ media: string; listeners: Set<Listener>; last: boolean }>();

function evaluate(media: string): boolean {
  return media.split(/\s+and\s+/).every((part) => {
    const min = /min-width:\s*(\d+(?:\.\d+)?)px/.exec(part);
    if (min) return viewport.width >= Number(min[1]);
    const max = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(part);
    if (max) return viewport.width <= Number(max[1]);
    if (part.includes('prefers-color-scheme: dark')) return viewport.prefersDark;
    if (part.includes('prefers-color-scheme: light')) return !viewport.prefersDark;
    return false;
  });
}

function notify(): void {
  for (const query of queries) {
    const matches = evaluate(query.media);
    if (matches === query.last) continue;
    query.last = matches;
    query.listeners.forEach((listener) => listener({ matches, media: query.media }));
  }
}

export function setViewportWidth(width: number): void {
  viewport.width = width;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  notify();
}

export function setSystemPrefersDark(dark: boolean): void {
  viewport.prefersDark = dark;
  notify();
}

export function installMatchMedia(): void {
  window.matchMedia = (media: string) => {
    const query = { media, listeners: new Set<Listener>(), last: evaluate(media) };
    queries.add(query);
    return {
      media,
      get matches() {
        return evaluate(media);
      },
      onchange: null,
      addListener: (listener: Listener) => query.listeners.add(listener),
      removeListener: (listener: Listener) => query.listeners.delete(listener),
      addEventListener: (_type: string, listener: Listener) => query.listeners.add(listener),
      removeEventListener: (_type: string, listener: Listener) => query.listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  };
}

export function resetMedia(): void {
  queries.clear();
  viewport.prefersDark = false;
  setViewportWidth(1440);
}
