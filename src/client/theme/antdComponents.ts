/**
 * The antd components the shop renders, by their export name in 'antd'. The build-time CSS
 * (scripts/build-antd-styles.tsx) has the styles of exactly these, in two files: a component
 * missing here renders unstyled, which the e2e screenshots show. Row/Col (9 KB gzip of grid
 * classes), Space (7 KB) and Pagination are not used: Flex and Button do their work here.
 */

/** In the shell and the home page: their CSS is part of the first load (theme/antd-shell.generated.css). */
export const SHELL_COMPONENTS = ['App', 'Badge', 'Button', 'Flex', 'Spin', 'message'] as const;

/**
 * Only on other pages and in dialogs: their CSS (theme/antd-pages.generated.css) is imported by
 * those modules, so it arrives with their lazy chunks, before they render.
 */
export const PAGE_COMPONENTS = [
  'Alert',
  'Card',
  'Dropdown',
  'Empty',
  'Form',
  'Input',
  'InputNumber',
  'Menu',
  'Modal',
  'Radio',
  'Result',
  'Select',
  'Tabs',
  'Tag',
  'Typography',
] as const;
