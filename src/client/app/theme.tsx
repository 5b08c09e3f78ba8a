import { ConfigProvider, theme } from 'antd';
// The ES build of the locale: antd/locale/ru_RU is CommonJS and drags the CJS date-picker locales in.
import ruRU from 'antd/es/locale/ru_RU';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { selectColourMode } from '@/features/colourMode/colourModeSlice';
import { useAppSelector } from './withTypes';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeToSystemScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The operating system's scheme, followed live while the page is open. */
function useSystemPrefersDark(): boolean {
  return useSyncExternalStore(subscribeToSystemScheme, () => window.matchMedia(DARK_QUERY).matches, () => false);
}

export function useIsDark(): boolean {
  const mode = useAppSelector(selectColourMode);
  const systemDark = useSystemPrefersDark();
  return mode === 'dark' || (mode === 'system' && systemDark);
}

// SPEC §9 breakpoints: sm 600, md 1050, lg 1416, xl 1920. antd also has xs, xxl and xxxl, and wants
// each one's Min and the Max just below the next one, so all are derived from one list.
const SCREENS = { XS: 480, SM: 600, MD: 1050, LG: 1416, XL: 1920, XXL: 2560, XXXL: 3840 } as const;
const breakpoints = Object.fromEntries(
  Object.entries(SCREENS).flatMap(([name, width], index, all) => [
    [`screen${name}`, width],
    [`screen${name}Min`, width],
    ...(index + 1 < all.length ? [[`screen${name}Max`, all[index + 1]![1] - 1]] : []),
  ]),
);

// The brand raspberry, darkened on white and lightened on black so text on it stays readable (WCAG AA).
const PRIMARY_ON_LIGHT = '#c0325a';
const PRIMARY_ON_DARK = '#e0487a';

export function ThemeProvider({ children }: { children: ReactNode }) {
  const dark = useIsDark();
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider
      locale={ruRU}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: dark ? PRIMARY_ON_DARK : PRIMARY_ON_LIGHT, colorLink: dark ? PRIMARY_ON_DARK : PRIMARY_ON_LIGHT, borderRadius: 10, fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', ...breakpoints },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
