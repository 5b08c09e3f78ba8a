/**
 * The shop's contacts as the storefront's contact strip and every e-mail print them. The address
 * for questions is configurable (CONTACT_EMAIL: at build time for the storefront, at start for the
 * server); this is the one used when it is not set.
 */
export const DEFAULT_CONTACT_EMAIL = 'opt@myagkiy-opt.example';
export const SHOP_LOCATION = 'Москва, адрес склада уточняйте у менеджера';
export const SHOP_HOURS = 'Пн–Пт, 10:00–20:00';
