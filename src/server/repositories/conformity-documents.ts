import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { ConformityDocumentFields, ConformityDocumentPatch, ConformityProduct } from '../../shared/api';
import type { Queryable } from '../db/database';
import { conformityDocuments, products } from '../db/schema';

/** A document as the back office lists it, without its PDF; `expired` is the service's to tell. */
export interface ConformityDocumentRow extends ConformityDocumentFields {
  id: number;
  pdf_bytes: number;
  products: number;
}

const rowColumns = {
  id: conformityDocuments.id,
  kind: conformityDocuments.kind,
  regulation: conformityDocuments.regulation,
  number: conformityDocuments.number,
  valid_from: conformityDocuments.validFrom,
  valid_to: conformityDocuments.validTo,
  pdf_bytes: conformityDocuments.pdfBytes,
  products: count(products.id),
};

const columnOf = {
  kind: 'kind',
  regulation: 'regulation',
  number: 'number',
  valid_from: 'validFrom',
  valid_to: 'validTo',
} as const;

/** The wire's snake_case fields as the table's columns. */
function columns(patch: ConformityDocumentPatch) {
  return Object.fromEntries(
    Object.entries(patch).map(([field, value]) => [columnOf[field as keyof typeof columnOf], value]),
  ) as Partial<typeof conformityDocuments.$inferInsert>;
}

/** Сертификаты and декларации with their PDFs; the changes are the service's (services/conformity-documents.ts). */
export function createConformityDocumentsRepository(db: Queryable) {
  const byId = (id: number) => eq(conformityDocuments.id, id);
  // Each document with the count of the products that name it.
  const rows = () =>
    db
      .select(rowColumns)
      .from(conformityDocuments)
      .leftJoin(products, eq(products.conformityDocumentId, conformityDocuments.id))
      .groupBy(conformityDocuments.id)
      .$dynamic();

  return {
    /** Newest first. */
    list(): Promise<ConformityDocumentRow[]> {
      return rows().orderBy(desc(conformityDocuments.id));
    },

    async find(id: number): Promise<ConformityDocumentRow | null> {
      const [row] = await rows().where(byId(id));
      return row ?? null;
    },

    /** The document (no count: a lock takes no aggregate), locked for the rest of the caller's transaction. */
    async lock(id: number): Promise<ConformityDocumentFields | null> {
      const [row] = await db
        .select({
          kind: conformityDocuments.kind,
          regulation: conformityDocuments.regulation,
          number: conformityDocuments.number,
          valid_from: conformityDocuments.validFrom,
          valid_to: conformityDocuments.validTo,
        })
        .from(conformityDocuments)
        .where(byId(id))
        .for('update');
      return row ?? null;
    },

    async pdf(id: number): Promise<{ number: string; pdf: Buffer } | null> {
      const [row] = await db
        .select({ number: conformityDocuments.number, pdf: conformityDocuments.pdf })
        .from(conformityDocuments)
        .where(byId(id));
      return row ?? null;
    },

    async insert(fields: ConformityDocumentFields, pdf: Buffer): Promise<number> {
      const [row] = await db
        .insert(conformityDocuments)
        .values({ ...(columns(fields) as typeof conformityDocuments.$inferInsert), pdf, pdfBytes: pdf.length })
        .returning({ id: conformityDocuments.id });
      return row!.id;
    },

    async update(id: number, patch: ConformityDocumentPatch): Promise<void> {
      await db.update(conformityDocuments).set(columns(patch)).where(byId(id));
    },

    async replacePdf(id: number, pdf: Buffer): Promise<void> {
      await db.update(conformityDocuments).set({ pdf, pdfBytes: pdf.length }).where(byId(id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(conformityDocuments).where(byId(id));
    },

    /** How many products name the document. */
    async productCount(id: number): Promise<number> {
      const [row] = await db.select({ count: count() }).from(products).where(eq(products.conformityDocumentId, id));
      return row?.count ?? 0;
    },

    /** The products the document covers, by article. */
    coveredProducts(id: number): Promise<ConformityProduct[]> {
      return db
        .select({ id: products.id, art: products.art, name: products.name })
        .from(products)
        .where(eq(products.conformityDocumentId, id))
        .orderBy(asc(products.art));
    },

    /** Which of `ids` are products (hidden ones too). */
    async existingProducts(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: products.id })
        .from(products)
        .where(inArray(products.id, [...ids]));
      return new Set(rows.map((row) => row.id));
    },

    /**
     * The document covers exactly `ids`: the products leave the document they named (if any), and
     * the document's other products are left without one. Answers how many rows changed.
     */
    async setCoveredProducts(id: number, ids: readonly number[]): Promise<number> {
      const dropped = await db
        .update(products)
        .set({ conformityDocumentId: null })
        .where(
          and(
            eq(products.conformityDocumentId, id),
            ids.length === 0 ? undefined : sql`not (${inArray(products.id, [...ids])})`,
          ),
        )
        .returning({ id: products.id });
      if (ids.length === 0) return dropped.length;
      const taken = await db
        .update(products)
        .set({ conformityDocumentId: id })
        .where(
          and(
            inArray(products.id, [...ids]),
            or(isNull(products.conformityDocumentId), ne(products.conformityDocumentId, id)),
          ),
        )
        .returning({ id: products.id });
      return dropped.length + taken.length;
    },
  };
}
