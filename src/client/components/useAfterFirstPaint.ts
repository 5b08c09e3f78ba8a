import { useEffect, useState } from 'react';

let firstPaint: Promise<void> | undefined;

/**
 * Settles once the browser has painted the page's first content (its `first-contentful-paint`
 * entry, which every browser the shop supports reports; without PerformanceObserver, as in jsdom,
 * after the next frame). A chunk requested from here is not on the path to that paint: Lighthouse
 * counts every request started before it into the first paint (the header's search field and the
 * banner carousel cost the home page about 0.6 s of its simulated first paint on a phone), and a
 * request started just after the next frame was still before it.
 */
export function afterFirstPaint(): Promise<void> {
  firstPaint ??= new Promise((resolve) => {
    try {
      new PerformanceObserver((entries, observer) => {
        if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        resolve();
      }).observe({ type: 'paint', buffered: true });
    } catch {
      requestAnimationFrame(() => setTimeout(resolve));
    }
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
