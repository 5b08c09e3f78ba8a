import { theme, type ThemeConfig } from 'antd';

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
const PRIMARY_ON_LIGHT = '#c0325a';
// Hovered, antd lightens it to #cc5673: white text on a hovered primary button read at 4.08:1 (axe
// caught it when a button appeared under the resting pointer). A darker raspberry instead, 6.8:1,
// as the hovered danger button below.
const PRIMARY_HOVER_ON_LIGHT = '#a8294f';
// On black no one raspberry does both: antd's dark algorithm turns this seed into #c1406b for
// fills (white text on it 5:1), and text in the brand colour (the chosen tab; the shop's links, by
// --shop-link in app/global.css) takes a lighter one that reads at 5:1 even on dialogs' #1f1f1f.
// colorLink is a seed as well: the dark algorithm derives #c8557a from it, which is why the shop's
// links do not use antd's link colour in the dark theme (antd renders no link of its own here).
const PRIMARY_SEED_ON_DARK = '#e0487a';
const PRIMARY_TEXT_ON_DARK = '#e8608c';
// Hovered, the dark algorithm lightens the fill to #d7698a: white text on it read at 3.35:1. A
// primary button darkens on hover instead (5.8:1), as in the light theme. antd takes the same hover
// colour for the default buttons' hover text, which on black must stay light: the brand text colour.
const PRIMARY_FILL_HOVER_ON_DARK = '#b03a62';
// antd's description grey (45%) reads at 3.3:1 on the page's grey; 65% reads at 6:1 or more, on
// white as on black.
const DESCRIPTION_ON_LIGHT = 'rgba(0, 0, 0, 0.65)';
const DESCRIPTION_ON_DARK = 'rgba(255, 255, 255, 0.65)';
// antd's green reads at 2.2:1 in the light 'Доставлен' and 'В наличии' tags (SPEC §2); this one 5.4:1.
// Its background and border stay antd's light ones: derived from this darker green they turn grey
// (#adb8a5, on which it reads at 2.7:1).
const SUCCESS_ON_LIGHT = { colorSuccess: '#237804', colorSuccessBg: '#f6ffed', colorSuccessBorder: '#b7eb8f' };
// The same for antd's red (3.3:1 on white in danger buttons and form errors): red-7 reads at 5.9:1,
// on antd's own light red background and border. On black antd's red dims to 4.3:1; a lighter seed fixes it.
// A hovered danger button (the account's deletion) turns red-8, not antd's lighter #d94e59 (3.5:1 on its grey).
const ERROR_ON_LIGHT = {
  colorError: '#cf1322',
  colorErrorHover: '#a8071a',
  colorErrorBg: '#fff2f0',
  colorErrorBorder: '#ffccc7',
};
const ERROR_SEED_ON_DARK = '#ff7875';
// antd's placeholder grey (25%) reads at 1.8:1: the back office's empty selects and filters say
// what they hold in it, so it must be read. 56% reads at 4.9:1 on white, 50% at 5:1 on black.
const PLACEHOLDER_ON_LIGHT = 'rgba(0, 0, 0, 0.56)';
const PLACEHOLDER_ON_DARK = 'rgba(255, 255, 255, 0.5)';

/**
 * The class antd puts its token variables on (`.css-var-shop`, the key itself). Fixed, so the stylesheet made at
 * build time (scripts/build-antd-styles.tsx) and the elements rendered in the browser agree.
 */
export const CSS_VAR_KEY = 'css-var-shop';

// Page titles (Typography.Title, level 1) and section titles (level 2) at the shop's sizes: antd's
// 38 and 30 px crowd a phone.
const HEADINGS = {
  fontSizeHeading1: 28,
  lineHeightHeading1: 36 / 28,
  fontSizeHeading2: 22,
  lineHeightHeading2: 30 / 22,
};

const shared: ThemeConfig = {
  // No CSS-in-JS at run time: the components' CSS is made at build time and loaded as a file.
  zeroRuntime: true,
  // No hash classes: the build-time CSS must match elements whatever antd's version salt is.
  hashed: false,
  cssVar: { key: CSS_VAR_KEY },
};

/** The light theme: what the root ConfigProvider renders with, and the default of the static CSS. */
export const lightTheme: ThemeConfig = {
  ...shared,
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: PRIMARY_ON_LIGHT,
    colorPrimaryHover: PRIMARY_HOVER_ON_LIGHT,
    colorPrimaryTextHover: PRIMARY_HOVER_ON_LIGHT,
    colorLink: PRIMARY_ON_LIGHT,
    colorTextDescription: DESCRIPTION_ON_LIGHT,
    colorTextPlaceholder: PLACEHOLDER_ON_LIGHT,
    ...SUCCESS_ON_LIGHT,
    ...ERROR_ON_LIGHT,
    borderRadius: 10,
    fontFamily: 'inherit',
    ...HEADINGS,
    ...breakpoints,
  },
  // A Descriptions' labels in the description grey: antd's tertiary grey reads at 3.4:1 on white.
  components: { Descriptions: { labelColor: DESCRIPTION_ON_LIGHT } },
};

/**
 * The dark theme. Only its variables are used, from the static CSS under `html[data-theme="dark"]`:
 * switching is an attribute on <html>, never a re-render of antd's tokens.
 */
export const darkTheme: ThemeConfig = {
  ...shared,
  algorithm: theme.darkAlgorithm,
  token: {
    colorPrimary: PRIMARY_SEED_ON_DARK,
    colorLink: PRIMARY_TEXT_ON_DARK,
    colorTextDescription: DESCRIPTION_ON_DARK,
    colorTextPlaceholder: PLACEHOLDER_ON_DARK,
    colorError: ERROR_SEED_ON_DARK,
    borderRadius: 10,
    fontFamily: 'inherit',
    ...HEADINGS,
    ...breakpoints,
  },
  components: {
    Button: {
      colorPrimaryHover: PRIMARY_FILL_HOVER_ON_DARK,
      defaultHoverColor: PRIMARY_TEXT_ON_DARK,
      defaultHoverBorderColor: PRIMARY_TEXT_ON_DARK,
    },
    Tabs: {
      itemSelectedColor: PRIMARY_TEXT_ON_DARK,
      itemHoverColor: PRIMARY_TEXT_ON_DARK,
      itemActiveColor: PRIMARY_TEXT_ON_DARK,
    },
    // The back office's side menu: the chosen section on its raspberry tint, where no raspberry
    // text reads at 4.5:1.
    Menu: { itemSelectedColor: '#ffffff', itemHoverColor: '#ffffff' },
    Descriptions: { labelColor: DESCRIPTION_ON_DARK },
  },
};
