// The price list's import as the back office runs it: the repository plans and writes it in one
// transaction (repositories/price-list.ts); here its refusals become the errors a manager reads.
import type { Database } from '../db/database';
import {
  CatalogueChangedDuringImportError,
  CatalogueChangedSincePreviewError,
  PriceListPreviewNotFoundError,
} from '../domain/domain-errors';
import type { ImportOutcome, NumberedRow, PreviewedRow } from '../domain/price-list-rows';
import { createPriceListRepository, type ImportOptions, type ImportRefusal } from '../repositories/price-list';
import { NEW_PRODUCT_IMAGE } from './catalogue-images';

const refusalErrors: Record<ImportRefusal, () => Error> = {
  'preview-not-found': () => new PriceListPreviewNotFoundError(),
  'changed-since-preview': () => new CatalogueChangedSincePreviewError(),
  'changed-during-import': () => new CatalogueChangedDuringImportError(),
};

function outcomeOf(result: ImportOutcome | ImportRefusal): ImportOutcome {
  if (typeof result === 'string') throw refusalErrors[result]();
  return result;
}

export function createPriceListImportService(db: Database) {
  const priceList = createPriceListRepository(db);
  return {
    /** See PriceListRepository.importRows; a product it creates shows the placeholder picture. */
    async importRows(rows: NumberedRow[], options: Omit<ImportOptions, 'newProductImage'>): Promise<ImportOutcome> {
      return outcomeOf(await priceList.importRows(rows, { ...options, newProductImage: NEW_PRODUCT_IMAGE }));
    },

    /** Applies a manager's own preview as it was checked (PriceListRepository.applyPreview). */
    async applyPreview(id: string, userId: number): Promise<ImportOutcome> {
      return outcomeOf(await priceList.applyPreview(id, userId, NEW_PRODUCT_IMAGE));
    },

    /** The counts of a manager's own preview that has not expired; anyone else's, or none, is not found. */
    async preview(id: string, userId: number) {
      const preview = await priceList.preview(id, userId);
      if (!preview) throw new PriceListPreviewNotFoundError();
      return preview;
    },

    /** One page of a preview's changed and new rows, in the file's order. */
    async previewChanges(id: string, userId: number, skip: number, limit: number): Promise<PreviewedRow[]> {
      const rows = await priceList.previewChanges(id, userId, skip, limit);
      if (!rows) throw new PriceListPreviewNotFoundError();
      return rows;
    },
  };
}
