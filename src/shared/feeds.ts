// The addresses of the product feeds in YML, for the server's routes and the company page that shows them.

/** The visitors' feed: their prices (none while the shop shows prices only after sign-in). */
export const VISITORS_FEED_PATH = '/api/v1/feed.yml';

/** A company's secret feed: its price type's prices, the recommended retail price and the stock. */
export const companyFeedPath = (token: string) => `/api/v1/feed/${token}.yml`;
