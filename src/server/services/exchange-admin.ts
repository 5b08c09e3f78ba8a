import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ExchangeConfig } from '../config';
import type { Database } from '../db/database';
import { ExchangeItemNotFoundError, PriceTypeNotFoundError, UserNotFoundError } from '../domain/domain-errors';
import { createAuditRepository } from '../repositories/audit';
import {
  createExchangeAdminRepository,
  type ExchangeAccountRow,
  type ExchangePriceTypeRow,
  type ExchangeRunFileRow,
  type ExchangeRunRow,
  type ExchangeWarehouseRow,
} from '../repositories/exchange-admin';
import { createExchangeTransportRepository } from '../repositories/exchange-transport';
import { pathInFolder } from './exchange-files';
import type { ExchangeOrders } from './exchange-orders';
import { createExchangeSettings } from './exchange-settings';
import { EXCHANGE_PATH, type ExchangeSettings } from '../../shared/exchange';
import type {
  ExchangeAccount,
  ExchangeOverview,
  ExchangePriceType,
  ExchangeResendResult,
  ExchangeRun,
  ExchangeRunList,
  ExchangeSettingsBody,
  ExchangeWarehouse,
} from '../../shared/api';
import { RUN_ERRORS_SHOWN } from '../../shared/schemas/exchange';

const accountOf = (row: ExchangeAccountRow): ExchangeAccount => ({
  id: row.id,
  email: row.email,
  name: row.name,
  is_manager: row.role === 'manager',
});

const priceTypeOf = (row: ExchangePriceTypeRow): ExchangePriceType => ({
  external_id: row.externalId,
  name: row.name,
  price_type_id: row.priceTypeId,
  mapped_by_manager: row.mappedByManager,
  last_seen_at: row.lastSeenAt.toISOString(),
});

const warehouseOf = (row: ExchangeWarehouseRow): ExchangeWarehouse => ({
  external_id: row.externalId,
  name: row.name,
  used: row.used,
  last_seen_at: row.lastSeenAt.toISOString(),
});

function runOf(row: ExchangeRunRow, files: ExchangeRunFileRow[]): ExchangeRun {
  const stats = row.stats;
  const errors = stats.errors ?? [];
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    failure: row.failure,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    by_email: row.byEmail,
    files: files.map((file) => ({ name: file.name, bytes: file.bytes, stage: file.stage, failure: file.failure })),
    files_kept: row.filesRemovedAt === null,
    categories_created: stats.categoriesCreated ?? 0,
    categories_updated: stats.categoriesUpdated ?? 0,
    products_created: stats.productsCreated ?? 0,
    products_updated: stats.productsUpdated ?? 0,
    products_hidden: stats.productsHidden ?? 0,
    products_linked_by_article: stats.productsLinkedByArticle ?? [],
    variants_created: stats.variantsCreated ?? 0,
    variants_updated: stats.variantsUpdated ?? 0,
    prices_set: stats.pricesSet ?? 0,
    variants_linked: stats.variantsLinked ?? 0,
    orders_sent: stats.ordersSent ?? 0,
    orders_updated: stats.ordersUpdated ?? 0,
    errors: errors.slice(0, RUN_ERRORS_SHOWN),
    errors_count: errors.length,
  };
}

const settingsBodyOf = (settings: ExchangeSettings): ExchangeSettingsBody => ({
  color_characteristic: settings.colorCharacteristic,
  size_characteristic: settings.sizeCharacteristic,
  missing_products: settings.missingProducts,
});

/**
 * The back office's «Обмен с 1С»: what a manager types into 1С, who may exchange, how 1С's price
 * types and warehouses feed the shop, what the exchanges did (their files kept for support), and
 * orders sent again. Every change is in the audit log.
 */
export function createExchangeAdmin(db: Database, config: ExchangeConfig, exchangeOrders: ExchangeOrders) {
  const settings = createExchangeSettings(db);

  return {
    /** Everything the screen shows but the runs; `siteOrigin` is the shop's address as the manager reaches it. */
    async overview(siteOrigin: string): Promise<ExchangeOverview> {
      const repository = createExchangeAdminRepository(db);
      const [accounts, priceTypes, warehouses, pending, current] = await Promise.all([
        repository.accounts(),
        repository.priceTypes(),
        repository.warehouses(),
        repository.pendingOrders(),
        settings.read(),
      ]);
      return {
        url: `${siteOrigin}${EXCHANGE_PATH}`,
        file_limit: config.fileLimitBytes,
        files_keep_days: config.filesKeepDays,
        allowed_ips: config.allowedIps,
        accounts: accounts.map(accountOf),
        settings: settingsBodyOf(current),
        price_types: priceTypes.map(priceTypeOf),
        warehouses: warehouses.map(warehouseOf),
        pending_orders: pending,
      };
    },

    async setSettings(next: ExchangeSettingsBody, byUserId: number): Promise<ExchangeSettingsBody> {
      const before = settingsBodyOf(await settings.read());
      const saved: ExchangeSettingsBody = {
        color_characteristic: next.color_characteristic.trim() || before.color_characteristic,
        size_characteristic: next.size_characteristic.trim() || before.size_characteristic,
        missing_products: next.missing_products,
      };
      await db.transaction(async (tx) => {
        await createExchangeSettings(tx).write({
          colorCharacteristic: saved.color_characteristic,
          sizeCharacteristic: saved.size_characteristic,
          missingProducts: saved.missing_products,
        });
        await createAuditRepository(tx).record({
          byUserId,
          action: 'exchange.settings',
          entity: 'settings',
          entityId: null,
          before,
          after: saved,
        });
      });
      return saved;
    },

    /** The exchange access for an existing account (found by e-mail); the change is audited. */
    async grant(email: string, byUserId: number): Promise<ExchangeAccount> {
      const granted = await createExchangeTransportRepository(db).setExchangeAccess(email, true, byUserId);
      if (!granted) throw new UserNotFoundError(email.trim());
      const accounts = await createExchangeAdminRepository(db).accounts();
      return accountOf(accounts.find((account) => account.email === granted.email)!);
    },

    /** Takes the access away; the account's exchange sessions end at once. */
    async revoke(userId: number, byUserId: number): Promise<void> {
      const account = await createExchangeAdminRepository(db).account(userId);
      if (!account) throw new ExchangeItemNotFoundError('Учётная запись не найдена');
      await createExchangeTransportRepository(db).setExchangeAccess(account.email, false, byUserId);
    },

    /** The shop type a 1С price type fills from the next offers file on (null: not loaded); audited. */
    mapPriceType(externalId: string, priceTypeId: number | null, byUserId: number): Promise<ExchangePriceType> {
      return db.transaction(async (tx) => {
        const repository = createExchangeAdminRepository(tx);
        if (priceTypeId !== null && !(await repository.shopPriceTypeExists(priceTypeId))) {
          throw new PriceTypeNotFoundError();
        }
        const changed = await repository.mapPriceType(externalId, priceTypeId);
        if (!changed) throw new ExchangeItemNotFoundError('Такого типа цен 1С ещё не было в обменах');
        await createAuditRepository(tx).record({
          byUserId,
          action: 'exchange.price_type',
          entity: 'settings',
          entityId: null,
          before: { external_id: externalId, name: changed.before.name, price_type_id: changed.before.priceTypeId },
          after: { external_id: externalId, name: changed.after.name, price_type_id: changed.after.priceTypeId },
        });
        return priceTypeOf(changed.after);
      });
    },

    /** Whether a 1С warehouse's stock counts in the shop's, from the next stock file on; audited. */
    setWarehouseUsed(externalId: string, used: boolean, byUserId: number): Promise<ExchangeWarehouse> {
      return db.transaction(async (tx) => {
        const changed = await createExchangeAdminRepository(tx).setWarehouseUsed(externalId, used);
        if (!changed) throw new ExchangeItemNotFoundError('Такого склада 1С ещё не было в обменах');
        await createAuditRepository(tx).record({
          byUserId,
          action: 'exchange.warehouse',
          entity: 'settings',
          entityId: null,
          before: { external_id: externalId, name: changed.before.name, used: changed.before.used },
          after: { external_id: externalId, name: changed.after.name, used: changed.after.used },
        });
        return warehouseOf(changed.after);
      });
    },

    async runs(skip: number, limit: number): Promise<ExchangeRunList> {
      const repository = createExchangeAdminRepository(db);
      const { rows, total } = await repository.runs(skip, limit);
      const files = await repository.runFiles(rows.map((row) => row.id));
      return {
        items: rows.map((row) =>
          runOf(
            row,
            files.filter((file) => file.runId === row.id),
          ),
        ),
        total,
      };
    },

    /**
     * The path of a file a run received or unpacked, while its files are kept: only names the run
     * recorded, inside its own folder.
     */
    async keptFile(runId: string, name: string): Promise<{ path: string; fileName: string; bytes: number }> {
      const kept = await createExchangeAdminRepository(db).keptFile(runId, name);
      const gone = new ExchangeItemNotFoundError('Файла этого обмена нет (или он уже удалён)');
      if (!kept) throw gone;
      const file = pathInFolder(path.join(config.dir, runId), kept.name);
      const found = await stat(file).catch(() => null);
      if (!found?.isFile()) throw gone;
      return { path: file, fileName: path.posix.basename(kept.name), bytes: found.size };
    },

    /** The chosen orders go to 1С again at the next `query`, as if changed now; audited. */
    async resend(orderIds: number[], byUserId: number): Promise<ExchangeResendResult> {
      const resent = await exchangeOrders.resend(orderIds, byUserId);
      const found = new Set(resent);
      return { resent: resent.length, not_found: [...new Set(orderIds)].filter((id) => !found.has(id)) };
    },
  };
}

export type ExchangeAdmin = ReturnType<typeof createExchangeAdmin>;
