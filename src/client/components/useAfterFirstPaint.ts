import { useEffect, useState } from 'react';

let firstPaint: Promise<void> | undefined;

/** The longest the lazy parts wait for a first paint the browser has not reported. */
const PAINT_WAIT_MS = 3000;

/**
 * Settles once the browser has painted the page's first content (its `first-contentful-paint`
 * entry; after the next frame where the browser reports no paint entries, as jsdom and browsers
 * older than Safari 14.1 and Firefox 84; and at the latest after PAINT_WAIT_MS, so that nothing
 * waits on a page that is never painted, in a tab opened behind). A chunk requested from here is
 * not on the path to that paint: Lighthouse counts every request started before it into the first
 * paint (the header's search field and the banner carousel cost the home page about 0.6 s of its
 * simulated first paint on a phone), and a request started just after the next frame was still
 * before it.
 */
export function afterFirstPaint(): Promise<void> {
  firstPaint ??= new Promise((resolve) => {
    setTimeout(resolve, PAINT_WAIT_MS);
    if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
      requestAnimationFrame(() => setTimeout(resolve));
      return;
    }
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    }).observe({ type: 'paint', buffered: true });
  });
  return firstPaint;
}

/** `false` until the page has been painted once (afterFirstPaint), then `true`. */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  // A state set after unmounting is ignored by React: no guard needed.
  useEffect(() => void afterFirstPaint().then(() => setPainted(true)), []);
  return painted;
}
