// The 1С catalogue exchange's `import`: a file is read into the staging tables (in the background of
// this process, short transactions, a heartbeat in exchange_files), then applied to the catalogue in
// one transaction under the exchange's lock — all of it or nothing — and announced to the caches once.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/database';
import { CommerceMlError, type ImportRecord, type OffersRecord } from '../commerceml/records';
import { readInThread } from '../commerceml/read-in-thread';
import { DomainError, ExchangeImportError } from '../domain/domain-errors';
import {
  categoryNames,
  mergeRunStats,
  rowError,
  stagedOfferOf,
  stagedProductOf,
  type StagedOffer,
  type StagedProduct,
} from '../domain/exchange-mapping';
import type { ExchangeRunStats } from '../../shared/exchange';
import { createExchangeCatalogueRepository } from '../repositories/exchange-catalogue';
import { createImagesRepository } from '../repositories/images';
import { NEW_PRODUCT_IMAGE } from './catalogue-images';
import { createExchangeSettings } from './exchange-settings';
import { MAX_IMAGE_BYTES, reencodeUploadedImage } from './uploaded-images';

export interface ExchangeCatalogueOptions {
  /** How long one `import` call waits for the file's work before answering `progress`. */
  budgetMs?: number;
  /** How often the work marks itself alive. */
  heartbeatMs?: number;
  /** A heartbeat older than this: the process that held the work died; another takes it over. */
  staleSeconds?: number;
}

type FileKind = 'import' | 'offers' | 'prices' | 'rests';

/** What 1С's file is, by its name: import*.xml, offers*.xml, prices*.xml, rests*.xml. */
function kindOf(fileName: string): FileKind {
  const base = path.basename(fileName).toLowerCase();
  for (const kind of ['import', 'offers', 'prices', 'rests'] as const) {
    if (base.startsWith(kind) && base.endsWith('.xml')) return kind;
  }
  throw new ExchangeImportError(
    `Файл ${fileName}: неизвестный файл обмена (ожидались import, offers, prices или rests)`,
  );
}

const BATCH = 1000;

export function createExchangeCatalogue(db: Database, options: ExchangeCatalogueOptions = {}) {
  const { budgetMs = 20_000, heartbeatMs = 5_000, staleSeconds = 60 } = options;
  const files = createExchangeCatalogueRepository(db);
  const settings = createExchangeSettings(db);
  const running = new Map<string, Promise<void>>();

  /** The file's first picture re-encoded as uploads are and kept; or why it could not be. */
  async function picture(
    folder: string,
    relative: string,
    byUserId: number,
  ): Promise<{ image: string | null; problem: string | null }> {
    const full = path.resolve(folder, relative);
    if (!full.startsWith(path.resolve(folder) + path.sep)) {
      return { image: null, problem: `картинка «${relative}» вне папки обмена` };
    }
    try {
      const size = (await stat(full)).size;
      if (size > MAX_IMAGE_BYTES) return { image: null, problem: `картинка «${relative}» больше 10 МБ` };
      const stored = await reencodeUploadedImage(await readFile(full));
      await createImagesRepository(db).save(stored, byUserId);
      return { image: stored.name, problem: null };
    } catch (error) {
      if (error instanceof DomainError) return { image: null, problem: `картинка «${relative}»: ${error.detail}` };
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { image: null, problem: `картинка «${relative}» не найдена` };
      }
      throw error;
    }
  }

  async function stageImport(runId: string, fileName: string, folder: string, byUserId: number) {
    let changesOnly = false;
    for await (const batch of readInThread('import', path.join(folder, fileName), fileName)) {
      const groups = [];
      const products: { externalId: string; record: StagedProduct }[] = [];
      for (const record of batch as ImportRecord[]) {
        if (record.kind === 'catalogue') changesOnly = record.changesOnly;
        else if (record.kind === 'group') {
          groups.push({ externalId: record.id, name: record.name, parentId: record.parentId, path: record.path });
        } else {
          const staged = stagedProductOf(record, changesOnly);
          const first = record.pictures[0];
          if (first !== undefined) {
            const kept = await picture(folder, first, byUserId);
            staged.image = kept.image;
            staged.pictureProblem = kept.problem;
          }
          products.push({ externalId: record.id, record: staged });
        }
      }
      await files.stageGroups(runId, groups);
      for (let i = 0; i < products.length; i += BATCH) {
        await files.stageProducts(runId, fileName, products.slice(i, i + BATCH));
      }
    }
  }

  async function stageOffers(runId: string, fileName: string, folder: string) {
    const names = await settings.read();
    const taxIncluded = new Map<string, boolean | null>();
    for await (const batch of readInThread('offers', path.join(folder, fileName), fileName)) {
      const types = [];
      const warehouses = [];
      const offers: { externalId: string; record: StagedOffer }[] = [];
      for (const record of batch as OffersRecord[]) {
        if (record.kind === 'price-type') {
          taxIncluded.set(record.id, record.taxIncluded);
          types.push({ id: record.id, name: record.name });
        } else if (record.kind === 'warehouse') warehouses.push({ id: record.id, name: record.name });
        else if (record.kind === 'offer') {
          offers.push({ externalId: record.id, record: stagedOfferOf(record, names, taxIncluded) });
        }
      }
      await files.upsertPriceTypes(types);
      await files.upsertWarehouses(warehouses);
      for (let i = 0; i < offers.length; i += BATCH) {
        await files.stageOffers(runId, fileName, offers.slice(i, i + BATCH));
      }
    }
  }

  /** Applies the staged file in one transaction; nothing when another process applied it first. */
  async function apply(runId: string, fileName: string, kind: FileKind): Promise<void> {
    const { missingProducts } = await settings.read();
    await db.transaction(async (tx) => {
      const repo = createExchangeCatalogueRepository(tx);
      if (!(await repo.lockForApply(runId, fileName))) return;
      const added: ExchangeRunStats = {};
      const errors: string[] = [];
      if (kind === 'import') {
        const groups = await repo.stagedGroups(runId, fileName);
        const holders = await repo.categoryHolders();
        const named = categoryNames(groups, new Map(holders.map((row) => [row.name.toLowerCase(), row.externalId])));
        for (const group of named.filter((row) => row.name === null)) {
          const staged = groups.find((row) => row.externalId === group.externalId)!;
          errors.push(rowError(fileName, null, `группа «${staged.path.join(' / ')}»: имя категории уже занято`));
        }
        const categories = await repo.upsertCategories(
          named.filter((row): row is { externalId: string; name: string } => row.name !== null),
        );
        const products = await repo.applyProducts(runId, fileName, {
          placeholderImage: NEW_PRODUCT_IMAGE,
          hideMissing: missingProducts === 'hide',
        });
        errors.push(...products.errors.map((row) => rowError(fileName, row.line, row.problem)));
        Object.assign(added, {
          categoriesCreated: categories.created,
          categoriesUpdated: categories.updated,
          productsCreated: products.created,
          productsUpdated: products.updated,
          productsHidden: products.hidden,
          productsLinkedByArticle: products.linked,
        });
      } else {
        const offers = await repo.applyOffers(runId, fileName, { createVariants: kind === 'offers' });
        errors.push(...offers.errors.map((row) => rowError(fileName, row.line, row.problem)));
        errors.push(
          ...offers.taxNotes.map((name) =>
            rowError(fileName, null, `цены типа «${name}» указаны без налога: сайт показывает их как есть`),
          ),
        );
        Object.assign(added, {
          variantsCreated: offers.created,
          variantsUpdated: offers.updated,
          variantsLinked: offers.linked,
          pricesSet: offers.pricesSet,
        });
      }
      added.errors = errors;
      const stats = (await repo.runStats(runId)) as ExchangeRunStats;
      await repo.saveStats(runId, mergeRunStats(stats, added));
      await repo.markApplied(runId, fileName);
    });
  }

  /** Stages the file (unless it was staged already) and applies it; a failure fails the file with its reason. */
  async function work(claimed: 'staging' | 'applying', runId: string, fileName: string, folder: string, by: number) {
    // One beat at a time: a slow database never gets a pile of them, each holding a connection.
    let beating = false;
    const beat = setInterval(() => {
      if (beating) return;
      beating = true;
      void files
        .heartbeat(runId, fileName)
        .catch(() => undefined)
        .finally(() => (beating = false));
    }, heartbeatMs);
    try {
      const kind = kindOf(fileName);
      if (claimed === 'staging') {
        await files.clearStaged(runId, fileName);
        if (kind === 'import') await stageImport(runId, fileName, folder, by);
        else await stageOffers(runId, fileName, folder);
        await files.setStage(runId, fileName, 'applying');
      }
      await apply(runId, fileName, kind);
    } catch (error) {
      const reason =
        error instanceof CommerceMlError
          ? error.message
          : error instanceof DomainError
            ? error.detail
            : `Файл ${fileName} не применён: ${error instanceof Error ? error.message : String(error)}`;
      await files.fail(runId, fileName, reason);
      throw error instanceof CommerceMlError || error instanceof ExchangeImportError
        ? error
        : new ExchangeImportError(reason);
    } finally {
      clearInterval(beat);
    }
  }

  return {
    /**
     * One `import` call for `fileName` of run `runId` whose files are in `folder`: works at most
     * budgetMs inside the request (the rest goes on in the background of this process, with a
     * heartbeat in exchange_files), answers 'progress' until the file is applied, then 'success'.
     * Throws CommerceMlError or ExchangeImportError → the route answers failure.
     */
    async importStep(
      runId: string,
      fileName: string,
      folder: string,
      byUserId: number,
    ): Promise<'progress' | 'success'> {
      const key = `${runId}/${fileName}`;
      let job = running.get(key);
      if (!job) {
        const state = await files.fileState(runId, fileName);
        if (state.stage === 'applied') return 'success';
        if (state.stage === 'failed') throw new ExchangeImportError(state.failure ?? `Файл ${fileName} не применён`);
        const claimed = await files.claim(runId, fileName, staleSeconds);
        if (claimed === null) return 'progress';
        const started = work(claimed, runId, fileName, folder, byUserId).finally(() => running.delete(key));
        // Failures are read by the call awaiting it, or from exchange_files by the next one.
        started.catch(() => undefined);
        running.set(key, started);
        job = started;
      }
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), budgetMs);
      });
      try {
        const done = await Promise.race([job.then(() => true as const), budget]);
        return done ? 'success' : 'progress';
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type ExchangeCatalogue = ReturnType<typeof createExchangeCatalogue>;
