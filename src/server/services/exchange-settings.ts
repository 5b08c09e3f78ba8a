import type { Queryable } from '../db/database';
import { createSettingsRepository } from '../repositories/settings';
import {
  DEFAULT_EXCHANGE_SETTINGS,
  MISSING_PRODUCT_POLICIES,
  type ExchangeSettings,
  type MissingProductPolicy,
} from '../../shared/exchange';

const KEY = 'exchange.settings';

/** The 1С exchange's settings (app_settings, one JSON value), with the defaults for what was never set. */
export function createExchangeSettings(db: Queryable) {
  const settings = createSettingsRepository(db);
  return {
    async read(): Promise<ExchangeSettings> {
      const stored = await settings.get(KEY);
      const saved = stored === null ? {} : (JSON.parse(stored) as Partial<ExchangeSettings>);
      const missingProducts: MissingProductPolicy = MISSING_PRODUCT_POLICIES.includes(
        saved.missingProducts as MissingProductPolicy,
      )
        ? saved.missingProducts!
        : DEFAULT_EXCHANGE_SETTINGS.missingProducts;
      return {
        colorCharacteristic: saved.colorCharacteristic || DEFAULT_EXCHANGE_SETTINGS.colorCharacteristic,
        sizeCharacteristic: saved.sizeCharacteristic || DEFAULT_EXCHANGE_SETTINGS.sizeCharacteristic,
        missingProducts,
      };
    },

    write: (next: ExchangeSettings): Promise<void> => settings.set(KEY, JSON.stringify(next)),
  };
}

export type ExchangeSettingsService = ReturnType<typeof createExchangeSettings>;
