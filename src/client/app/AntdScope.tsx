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

// The brand raspberry, darkened on white so text in it and white text on it read at 4.5:1 or more.
// It is the shell's --shop-primary and --shop-primary-fill in global.css.
const PRIMARY_ON_LIGHT = '#c0325a';
// On black no one raspberry does both: antd's dark algorithm turns this seed into #c1406b for
// fills (white text on it 5:1, the shell's dark --shop-primary-fill), and text in the brand colour
// (links, the chosen tab) takes a lighter one that reads at 5:1 even on dialogs' #1f1f1f (the shell's
// dark --shop-primary).
const PRIMARY_SEED_ON_DARK = '#e0487a';
const PRIMARY_TEXT_ON_DARK = '#e8608c';
const DARK_TABS = { itemSelectedColor: PRIMARY_TEXT_ON_DARK, itemHoverColor: PRIMARY_TEXT_ON_DARK, itemActiveColor: PRIMARY_TEXT_ON_DARK };
// antd's description grey (45%) reads at 3.3:1 on the page's grey; the shell's secondary text (65%)
// reads at 6:1 or more, on white as on black.
const DESCRIPTION_ON_LIGHT = 'rgba(0, 0, 0, 0.65)';
const DESCRIPTION_ON_DARK = 'rgba(255, 255, 255, 0.65)';
// antd's green reads at 2.2:1 in the light 'Доставлен' tag (SPEC §2); the shell's --shop-success, 5.4:1.
const DELIVERED_TAG_ON_LIGHT = { colorSuccess: '#237804' };

/**
 * antd's theme and Russian locale for the parts of the shop built with antd. It is not around the
 * whole app: the shell and the home page are plain elements, so antd downloads only with the
 * pages and dialogs that use it.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const dark = useIsDark();
  return (
    <ConfigProvider
      locale={ruRU}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: {
          colorPrimary: dark ? PRIMARY_SEED_ON_DARK : PRIMARY_ON_LIGHT,
          colorLink: dark ? PRIMARY_TEXT_ON_DARK : PRIMARY_ON_LIGHT,
          colorTextDescription: dark ? DESCRIPTION_ON_DARK : DESCRIPTION_ON_LIGHT,
          borderRadius: 10,
          fontFamily: 'inherit',
          ...breakpoints,
        },
        components: dark ? { Tabs: DARK_TABS } : { Tag: DELIVERED_TAG_ON_LIGHT },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
