import { ConfigProvider, theme } from 'antd';
// The ES build of the locale: antd/locale/ru_RU is CommonJS and drags the CJS date-picker locales in.
import ruRU from 'antd/es/locale/ru_RU';
import type { ReactNode } from 'react';
import { useIsDark } from '@/features/colourMode/useIsDark';

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

// The brand raspberry, darkened on white and lightened on black so text on it stays readable.
// The same two values are the shell's --shop-primary in global.css.
const PRIMARY_ON_LIGHT = '#c0325a';
const PRIMARY_ON_DARK = '#e0487a';

/**
 * antd's theme and Russian locale for the parts of the shop built with antd. It is not around the
 * whole app: the shell and the home page are plain elements, so antd downloads only with the
 * pages and dialogs that use it.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const dark = useIsDark();
  const primary = dark ? PRIMARY_ON_DARK : PRIMARY_ON_LIGHT;
  return (
    <ConfigProvider
      locale={ruRU}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: primary, colorLink: primary, borderRadius: 10, fontFamily: 'inherit', ...breakpoints },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
