import { Type } from 'typebox';
import { CONFORMITY_DOCUMENT_KINDS, PRODUCT_CARD_LIMITS } from '../product-card';
import { Id } from './common';

// The back office's сертификаты and декларации соответствия (/api/v1/admin/conformity-documents).
// A date that is not in the calendar (2026-02-30) and a validity ending before it starts are the
// service's to refuse: a shape cannot say so.

const Kind = Type.Enum(CONFORMITY_DOCUMENT_KINDS, {
  description: 'certificate — сертификат, declaration — декларация',
});
const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const ConformityDocumentSchema = Type.Object({
  id: Type.Integer(),
  kind: Kind,
  regulation: Type.String({ description: 'Технический регламент, например «ТР ТС 008/2011»' }),
  number: Type.String(),
  valid_from: Day('Действует с, ГГГГ-ММ-ДД'),
  valid_to: Day('Действует по, ГГГГ-ММ-ДД (включительно)'),
  pdf_bytes: Type.Integer({ description: 'Размер PDF, байт' }),
  products: Type.Integer({ description: 'Сколько товаров указывают этот документ' }),
  expired: Type.Boolean({ description: 'Срок действия истёк (по московскому дню)' }),
});

export const ConformityDocumentFieldsBody = Type.Object({
  kind: Kind,
  regulation: Type.String({ minLength: 1, maxLength: PRODUCT_CARD_LIMITS.textMax }),
  number: Type.String({ minLength: 1, maxLength: PRODUCT_CARD_LIMITS.documentNumberMax }),
  valid_from: Day('Действует с, ГГГГ-ММ-ДД'),
  valid_to: Day('Действует по, ГГГГ-ММ-ДД (включительно)'),
});

export const ConformityDocumentPatchBody = Type.Partial(ConformityDocumentFieldsBody, { minProperties: 1 });

/** At most this many products in one PUT /{id}/products. */
export const CONFORMITY_PRODUCTS_MAX = 5000;

export const ConformityProductsBody = Type.Object({
  products: Type.Array(Id, {
    maxItems: CONFORMITY_PRODUCTS_MAX,
    description: 'Все товары, которые покрывает документ; товар с другим документом переходит к этому',
  }),
});

export const ConformityProductSchema = Type.Object({ id: Type.Integer(), art: Type.String(), name: Type.String() });
