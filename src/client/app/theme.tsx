import { ConfigProvider } from 'antd';
// The ES build of the locale: antd/locale/ru_RU is CommonJS and drags the CJS date-picker locales in.
import ruRU from 'antd/es/locale/ru_RU';
import { useLayoutEffect, type ReactNode } from 'react';
import { useIsDark } from '@/features/colourMode/useIsDark';
import { lightTheme } from '@/theme/antdTheme';

/**
 * Marks the document light or dark. Both themes' antd variables are in the build-time stylesheet
 * (the dark ones under html[data-theme="dark"]), as are the shop's own, so this attribute is the
 * whole switch: nothing re-renders and no style is made.
 */
export function applyTheme(dark: boolean): void {
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

/**
 * antd for the whole shop: no runtime CSS-in-JS (zeroRuntime) and the Russian locale. antd's App
 * (message and notification through App.useApp) is not here but around the pages that show toasts:
 * with its modal, notification and form code it was 35 KB gzip of the home page's first load,
 * which shows none (docs/performance.md). The theme given here is always the light one: antd
 * still writes that theme's token variables into one <style> at start, the same key and values as
 * the static file, so it changes nothing; the dark values win by the html[data-theme] selector.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const dark = useIsDark();
  useLayoutEffect(() => applyTheme(dark), [dark]);
  return (
    <ConfigProvider locale={ruRU} theme={lightTheme}>
      {children}
    </ConfigProvider>
  );
}
