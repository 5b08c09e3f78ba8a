import { App as AntApp, ConfigProvider, theme } from 'antd';
import ruRU from 'antd/locale/ru_RU';
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

// SPEC §9 breakpoints: sm 600, md 1050, lg 1416, xl 1920 (antd wants each Min/Max pair too).
const breakpoints = {
  screenXSMax: 599,
  screenSM: 600,
  screenSMMin: 600,
  screenSMMax: 1049,
  screenMD: 1050,
  screenMDMin: 1050,
  screenMDMax: 1415,
  screenLG: 1416,
  screenLGMin: 1416,
  screenLGMax: 1919,
  screenXL: 1920,
  screenXLMin: 1920,
  screenXLMax: 2559,
  screenXXL: 2560,
  screenXXLMin: 2560,
};

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
        token: { colorPrimary: '#c0325a', borderRadius: 10, fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', ...breakpoints },
      }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
