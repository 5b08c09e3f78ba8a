/**
 * The antd components the shop renders, by their export name in 'antd', grouped by the stylesheet
 * that carries their CSS (scripts/build-antd-styles.tsx writes theme/antd-<group>.generated.css).
 * A component missing here renders unstyled, which the e2e screenshots show. Each file is imported
 * by the modules that render its components, so it arrives with their chunk, before they render;
 * a component in two groups has its rules in both files (the same rules, so harmless).
 * Row/Col (9 KB gzip of grid classes) and Space (7 KB) are not used: Flex and Button do their work here.
 */
export const ANTD_STYLE_GROUPS = {
  /** The shell and the home page: part of the first load (main.tsx). */
  shell: ['Badge', 'Button', 'Card', 'Empty', 'Flex', 'Spin', 'Typography'],
  /** The catalogue page's category, sort and colour Selects (Empty: their empty lists), size and price ranges, «В наличии». */
  catalogue: ['Select', 'Empty', 'InputNumber', 'Checkbox'],
  /** The header's and the phone menu's colour-mode switch (features/colourMode), loaded after the first paint. */
  colourMode: ['Radio'],
  /** The header's search field with suggestions (features/search), loaded when first reached for. */
  search: ['AutoComplete'],
  /** The product page's choices, quantity, stock tag and notice, its photos and their preview, its characteristics. */
  product: ['Radio', 'InputNumber', 'Tag', 'Typography', 'Image', 'Descriptions'],
  /**
   * The product page's colour × size matrix and its toasts (features/product/VariantMatrix, a chunk
   * of its own loaded after the page): its inputs are the 'product' group's InputNumber.
   */
  matrix: ['Table', 'message'],
  /** Every other page and dialog: cart, checkout, profile, about, 404, order success, login, phone menu. */
  pages: [
    'Alert',
    'App',
    'Card',
    'Dropdown',
    'Empty',
    'Form',
    'Input',
    'InputNumber',
    'Menu',
    'Modal',
    'Result',
    'Tabs',
    'Tag',
    'Typography',
    'message',
    // The profile's «Реквизиты и адреса» and the checkout's saved-address choice.
    'Checkbox',
    'Popconfirm',
    'Select',
  ],
  /**
   * A buyer's order page (/profile/orders/{id}, with 'pages'): its requisites, lines and history. A
   * group of its own, so the login dialog and the cart, which load 'pages', do not carry the table's CSS.
   */
  order: ['Descriptions', 'Table', 'Timeline'],
  /**
   * The profile's «Компания» (with 'pages': the employees' table, the legal entity's kind and
   * details) and its order list's pager, and the invitation's page (the invitation's details).
   */
  company: ['Descriptions', 'Pagination', 'Radio', 'Table'],
  /**
   * The quick-order page (/quick-order, with 'pages'): the file drop zone and the preview of up to
   * 5 000 checked lines, a page at a time.
   */
  quickOrder: ['Pagination', 'Table', 'Upload'],
  /**
   * The back office (features/admin, the "admin" chunk only managers download): its layout, tables
   * (with their pager, sorter, empty state and expand buttons), forms, order history, and the
   * catalogue pages' picture upload, switches and previews.
   */
  admin: [
    'Alert',
    'App',
    'Button',
    'Checkbox',
    'Descriptions',
    'Dropdown',
    'Empty',
    'Flex',
    'Form',
    'Image',
    'Input',
    'InputNumber',
    'Layout',
    'Menu',
    'Modal',
    'Pagination',
    'Popconfirm',
    'Radio',
    'Result',
    'Select',
    'Spin',
    'Switch',
    'Table',
    'Tag',
    'Timeline',
    'Tooltip',
    'Typography',
    'Upload',
    'message',
  ],
} as const;
