import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether `ref`'s element has come within `margin` below the bottom of the screen (and stays true
 * from then on): what is further down the page renders, and downloads its code, only as the shopper
 * scrolls towards it, not before the page's first paint.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = 200): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `0px 0px ${margin}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref, margin]);
  return near;
}
