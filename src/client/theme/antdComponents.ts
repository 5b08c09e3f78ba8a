/**
 * The antd components the shop renders, by their export name in 'antd'. The build-time CSS
 * (scripts/build-antd-styles.tsx) has the styles of exactly these: a component missing here
 * renders unstyled, which the e2e screenshots show. Row/Col (9 KB of grid classes) and Space
 * (7 KB) are left out on purpose: Flex does their work here for a fraction of the bytes.
 */
export const ANTD_COMPONENTS = [
  'Alert',
  'App',
  'Badge',
  'Button',
  'Card',
  'Dropdown',
  'Empty',
  'Flex',
  'Form',
  'Input',
  'InputNumber',
  'Menu',
  'Modal',
  'Pagination',
  'Radio',
  'Result',
  'Select',
  'Spin',
  'Tabs',
  'Tag',
  'Typography',
  'message',
] as const;
