import { useSyncExternalStore } from 'react';
import { useAppSelector } from '@/hooks/reduxHooks';
import { selectColourMode, type ColourMode } from './colourModeSlice';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeToSystemScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const systemPrefersDark = () => window.matchMedia(DARK_QUERY).matches;

export const isDarkMode = (mode: ColourMode, systemDark = systemPrefersDark()) =>
  mode === 'dark' || (mode === 'system' && systemDark);

/** Whether the shop is dark now: the chosen mode, or for 'system' the OS scheme, followed live. */
export function useIsDark(): boolean {
  const mode = useAppSelector(selectColourMode);
  const systemDark = useSyncExternalStore(subscribeToSystemScheme, systemPrefersDark, () => false);
  return isDarkMode(mode, systemDark);
}
