import { useSyncExternalStore } from 'react';

/** Whether the viewport is at least `width` px wide, followed live (a breakpoint without antd's Grid). */
export function useMinWidth(width: number): boolean {
  const query = `(min-width: ${width}px)`;
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}
