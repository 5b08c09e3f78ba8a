// The product feeds in YML: their addresses and who manages a company's, for the server's routes
// and the company page that shows them. Apart from company.ts, so the storefront's first load never
// carries them.
import type { CompanyRole } from './company';

/** The visitors' feed: their prices (none while the shop shows prices only after sign-in). */
export const VISITORS_FEED_PATH = '/api/v1/feed.yml';

/** A company's secret feed: its price type's prices, the recommended retail price and the stock. */
export const companyFeedPath = (token: string) => `/api/v1/feed/${token}.yml`;

/** Only an owner makes, replaces and turns off the company's secret feed address (it opens the company's prices). */
export const mayManageFeed = (role: CompanyRole): boolean => role === 'owner';

export const FEED_OWNER_ONLY = 'Адресом фида товаров управляет только владелец компании.';
