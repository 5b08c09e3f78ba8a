import type { CurrentUser, User } from '../../shared/api';
import type { AppConfig, BuyerLimits } from '../config';

/**
 * What decides which limits fall on a buyer (docs/decisions.md, «Caps on the unproven»): read from
 * the account's and its company's rows, never from the token, since a paid order or a manager changes it.
 */
export interface BuyerStanding {
  /** The account opened the link of the confirmation letter (or had ordered before it was asked for). */
  confirmed: boolean;
  /** The company has a paid order, or a manager marked it as trusted. */
  proven: boolean;
}

/** Unpaid orders the buyer may have at once: MAX_UNPAID_ORDERS_TRUSTED once proven, MAX_UNPAID_ORDERS before. */
export const maxUnpaidOrdersOf = ({ proven }: BuyerStanding, limits: BuyerLimits): number =>
  proven ? limits.maxUnpaidOrdersTrusted : limits.maxUnpaidOrders;

/**
 * The share of a variant's stock one order line may take, in percent (MAX_STOCK_SHARE_PERCENT), or
 * null when the buyer is proven and may order up to the stock.
 */
export const lineSharePercentOf = ({ proven }: BuyerStanding, limits: BuyerLimits): number | null =>
  proven ? null : limits.maxStockSharePercent;

/**
 * The share of a variant's stock the unpaid orders of all unproven buyers may hold together, in
 * percent (UNPROVEN_STOCK_SHARE_PERCENT), or null when the buyer is proven.
 */
export const unprovenPoolPercentOf = ({ proven }: BuyerStanding, limits: BuyerLimits): number | null =>
  proven ? null : limits.unprovenStockSharePercent;

/** GET /auth/user: the account, its standing and the limits that follow from it. */
export function currentUserAnswer(
  { confirmed, proven, ...user }: User & BuyerStanding & Pick<CurrentUser, 'company'>,
  { buyerLimits, requireEmailConfirmation }: Pick<AppConfig, 'buyerLimits' | 'requireEmailConfirmation'>,
): CurrentUser {
  const standing = { confirmed, proven };
  return {
    ...user,
    email_confirmed: confirmed,
    must_confirm_email: requireEmailConfirmation && !confirmed,
    proven,
    order_limits: {
      line_share_percent: lineSharePercentOf(standing, buyerLimits),
      unproven_pool_percent: unprovenPoolPercentOf(standing, buyerLimits),
      max_unpaid_orders: maxUnpaidOrdersOf(standing, buyerLimits),
    },
  };
}
