// The back office's сертификаты and декларации соответствия: each change audited and announced in
// its own transaction (services/catalogue-change.ts), as the products that name a document are
// the catalogue's. A document that is not there is «not found».
import type {
  ConformityDocument,
  ConformityDocumentFields,
  ConformityDocumentPatch,
  ConformityProduct,
} from '../../shared/api';
import { moscowDay } from '../../shared/dates';
import type { Database, Transaction } from '../db/database';
import {
  CatalogueItemNotFoundError,
  ConformityDocumentConflictError,
  ConformityDocumentRefusedError,
  UnsupportedFileTypeError,
} from '../domain/domain-errors';
import { createAuditRepository } from '../repositories/audit';
import { createConformityDocumentsRepository, type ConformityDocumentRow } from '../repositories/conformity-documents';
import { pluralForm } from '../../shared/plurals';
import { changeCatalogue, type UniqueRules } from './catalogue-change';

const NOT_FOUND = 'Документ соответствия не найден';

/** Every PDF starts so (ISO 32000-1, 7.5.2: the header is the file's first line). */
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

function checkedPdf(file: Buffer): Buffer {
  if (!file.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) {
    throw new UnsupportedFileTypeError('Файл документа должен быть в формате PDF');
  }
  return file;
}

/** Whether a YYYY-MM-DD is a day of the calendar (not 2026-02-30). */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The fields as they will stand, checked: real days, the validity not ending before it starts. */
function checkedValidity({ valid_from, valid_to }: Pick<ConformityDocumentFields, 'valid_from' | 'valid_to'>): void {
  for (const day of [valid_from, valid_to]) {
    if (!isCalendarDay(day)) throw new ConformityDocumentRefusedError(`Даты ${day} нет в календаре`);
  }
  if (valid_to < valid_from) {
    throw new ConformityDocumentRefusedError('Срок действия документа не может закончиться раньше, чем начался');
  }
}

const FIELD_NAMES = { number: 'Номер', regulation: 'Технический регламент' } as const;

/** Spaces around the text fields dropped; text that was only spaces is refused. */
function trimmed<Fields extends ConformityDocumentPatch>(fields: Fields): Fields {
  const copy = { ...fields };
  if (copy.number !== undefined) copy.number = copy.number.trim();
  if (copy.regulation !== undefined) copy.regulation = copy.regulation.trim();
  for (const field of ['number', 'regulation'] as const) {
    if (copy[field] === '') throw new ConformityDocumentRefusedError(`Не заполнено поле «${FIELD_NAMES[field]}»`);
  }
  return copy;
}

const uniqueNumber = (number: string): UniqueRules => ({
  conformity_documents_number_unique: () =>
    new ConformityDocumentConflictError(`Документ с номером «${number}» уже есть`),
});

/** `expired`: its last day has passed in Moscow. */
const listed = (row: ConformityDocumentRow, today: string): ConformityDocument => ({
  ...row,
  expired: row.valid_to < today,
});

async function lockedDocument(tx: Transaction, id: number): Promise<ConformityDocumentFields> {
  const document = await createConformityDocumentsRepository(tx).lock(id);
  if (!document) throw new CatalogueItemNotFoundError(NOT_FOUND);
  return document;
}

async function answer(tx: Transaction, id: number): Promise<ConformityDocument> {
  return listed((await createConformityDocumentsRepository(tx).find(id))!, moscowDay(new Date()));
}

export function createConformityDocumentService(db: Database) {
  const repository = createConformityDocumentsRepository(db);

  return {
    async list(): Promise<ConformityDocument[]> {
      const today = moscowDay(new Date());
      return (await repository.list()).map((row) => listed(row, today));
    },

    async pdf(id: number): Promise<{ number: string; pdf: Buffer }> {
      const document = await repository.pdf(id);
      if (!document) throw new CatalogueItemNotFoundError(NOT_FOUND);
      return document;
    },

    async coveredProducts(id: number): Promise<ConformityProduct[]> {
      if (!(await repository.find(id))) throw new CatalogueItemNotFoundError(NOT_FOUND);
      return repository.coveredProducts(id);
    },

    create(sent: ConformityDocumentFields, pdf: Buffer, byUserId: number): Promise<ConformityDocument> {
      const fields = trimmed(sent);
      checkedValidity(fields);
      checkedPdf(pdf);
      return changeCatalogue(
        db,
        async (tx) => {
          const id = await createConformityDocumentsRepository(tx).insert(fields, pdf);
          const after = await answer(tx, id);
          await createAuditRepository(tx).record({
            byUserId,
            action: 'conformity_document.create',
            entity: 'conformity_document',
            entityId: id,
            after: fields,
          });
          return after;
        },
        uniqueNumber(fields.number),
      );
    },

    update(id: number, sent: ConformityDocumentPatch, byUserId: number): Promise<ConformityDocument> {
      const patch = trimmed(sent);
      return changeCatalogue(
        db,
        async (tx) => {
          const before = await lockedDocument(tx, id);
          const after = { ...before, ...patch };
          checkedValidity(after);
          await createConformityDocumentsRepository(tx).update(id, patch);
          await createAuditRepository(tx).record({
            byUserId,
            action: 'conformity_document.update',
            entity: 'conformity_document',
            entityId: id,
            before,
            after,
          });
          return answer(tx, id);
        },
        uniqueNumber(patch.number ?? ''),
      );
    },

    replacePdf(id: number, pdf: Buffer, byUserId: number): Promise<ConformityDocument> {
      checkedPdf(pdf);
      return changeCatalogue(db, async (tx) => {
        const document = await lockedDocument(tx, id);
        const before = await answer(tx, id);
        await createConformityDocumentsRepository(tx).replacePdf(id, pdf);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'conformity_document.pdf',
          entity: 'conformity_document',
          entityId: id,
          before: { number: document.number, pdf_bytes: before.pdf_bytes },
          after: { number: document.number, pdf_bytes: pdf.length },
        });
        return answer(tx, id);
      });
    },

    /** The document covers exactly `productIds`; a product naming another document moves to this one. */
    setCoveredProducts(id: number, productIds: readonly number[], byUserId: number): Promise<ConformityProduct[]> {
      const wanted = [...new Set(productIds)];
      return changeCatalogue(db, async (tx) => {
        await lockedDocument(tx, id);
        const documents = createConformityDocumentsRepository(tx);
        const existing = await documents.existingProducts(wanted);
        const missing = wanted.filter((productId) => !existing.has(productId));
        if (missing.length > 0) {
          const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? '…' : '');
          throw new ConformityDocumentRefusedError(
            `${pluralForm(missing.length, { one: 'Товара', few: 'Товаров', many: 'Товаров' })} с id ${shown} нет`,
          );
        }
        const before = (await documents.coveredProducts(id)).map((product) => product.id);
        await documents.setCoveredProducts(id, wanted);
        const after = await documents.coveredProducts(id);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'conformity_document.products',
          entity: 'conformity_document',
          entityId: id,
          before: { products: before },
          after: { products: after.map((product) => product.id) },
        });
        return after;
      });
    },

    /** Refused while products name it: each product must be given another document (or none) first. */
    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedDocument(tx, id);
        const documents = createConformityDocumentsRepository(tx);
        const held = await documents.productCount(id);
        if (held > 0) {
          throw new ConformityDocumentConflictError(
            `Документ указан у ${held} ${pluralForm(held, { one: 'товара', few: 'товаров', many: 'товаров' })}: ` +
              'уберите его из товаров, прежде чем удалять',
          );
        }
        await documents.remove(id);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'conformity_document.delete',
          entity: 'conformity_document',
          entityId: id,
          before,
        });
      });
    },
  };
}
