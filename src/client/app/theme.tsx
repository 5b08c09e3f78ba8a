import { useLayoutEffect, type ReactNode } from 'react';
import { useIsDark } from '@/features/colourMode/useIsDark';

/** Marks the document light or dark; the shell's CSS and antd's theme (AntdScope) both follow it. */
export function applyTheme(dark: boolean): void {
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const dark = useIsDark();
  useLayoutEffect(() => applyTheme(dark), [dark]);
  return children;
}
