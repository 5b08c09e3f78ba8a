import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { documentFileName, PRODUCT_CARD_LIMITS } from '../../../shared/product-card';
import {
  ConformityDocumentFieldsBody,
  ConformityDocumentPatchBody,
  ConformityDocumentSchema,
  ConformityProductSchema,
  ConformityProductsBody,
} from '../../../shared/schemas/conformity-documents';
import type { ConformityDocumentFields } from '../../../shared/api';
import { EntityParams } from '../../../shared/schemas/admin-catalogue';
import { unprocessable } from '../../api-error';
import { describeValidationError, validatorCompiler } from '../../plugins/validation';
import { attachmentDisposition } from '../attachment';
import { errors, fileAnswer, managersOnly } from '../common-schemas';
import { acceptSingleFileForms, singleFileForm } from '../single-file-upload';

const PDF = 'PDF документа, до 20 МБ';

const list = managersOnly({
  summary: 'Сертификаты и декларации соответствия, новые первыми: срок действия, число товаров',
  response: { 200: Type.Array(ConformityDocumentSchema) },
});

const create = managersOnly({
  summary: 'Новый документ соответствия с его PDF (форма multipart/form-data: поля документа и file)',
  body: { content: singleFileForm(PDF, ConformityDocumentFieldsBody) },
  response: { 201: ConformityDocumentSchema, ...errors(409, 413, 415, 422) },
});

const update = managersOnly({
  summary: 'Изменить вид, регламент, номер или срок действия документа',
  params: EntityParams,
  body: ConformityDocumentPatchBody,
  response: { 200: ConformityDocumentSchema, ...errors(404, 409, 422) },
});

const replacePdf = managersOnly({
  summary: 'Заменить PDF документа',
  params: EntityParams,
  body: { content: singleFileForm(PDF) },
  response: { 200: ConformityDocumentSchema, ...errors(404, 413, 415, 422) },
});

const downloadPdf = managersOnly({
  summary: 'PDF документа; имя файла — по номеру документа',
  params: EntityParams,
  response: {
    200: fileAnswer('PDF документа; имя — в Content-Disposition', ['application/pdf']),
    ...errors(404, 422),
  },
});

const coveredProducts = managersOnly({
  summary: 'Товары, которые покрывает документ, по артикулу',
  params: EntityParams,
  response: { 200: Type.Array(ConformityProductSchema), ...errors(404, 422) },
});

const setCoveredProducts = managersOnly({
  summary: 'Задать товары, которые покрывает документ; товар с другим документом переходит к этому',
  params: EntityParams,
  body: ConformityProductsBody,
  response: { 200: Type.Array(ConformityProductSchema), ...errors(404, 422) },
});

const remove = managersOnly({
  summary: 'Удалить документ, который не указан ни у одного товара (иначе 409)',
  params: EntityParams,
  response: { 204: Type.Null({ description: 'Удалено' }), ...errors(404, 409, 422) },
});

// The form's fields are read with the file, after the schema's turn: they are checked here, as a
// JSON body would be, with the same words.
const checkFields = validatorCompiler({
  schema: ConformityDocumentFieldsBody,
  httpPart: 'body',
  method: 'POST',
  url: '',
});

function checkedFields(fields: Record<string, string>): ConformityDocumentFields {
  if (!checkFields(fields)) throw unprocessable(describeValidationError(checkFields.errors ?? [], 'body'));
  return fields as unknown as ConformityDocumentFields;
}

/** The back office's сертификаты and декларации соответствия (/api/v1/admin/conformity-documents). */
const conformityDocumentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { conformityDocuments } = app.services;
  const readForm = await acceptSingleFileForms(app, PRODUCT_CARD_LIMITS.documentPdfMax);

  app.get('/', { schema: list }, () => conformityDocuments.list());

  app.post('/', { schema: create }, async (request, reply) => {
    const { file, fields } = await readForm(request);
    const created = await conformityDocuments.create(checkedFields(fields), file, request.userId);
    return reply.code(201).send(created);
  });

  app.patch('/:id', { schema: update }, (request) =>
    conformityDocuments.update(request.params.id, request.body, request.userId),
  );

  app.put('/:id/pdf', { schema: replacePdf }, async (request) => {
    const { file } = await readForm(request);
    return conformityDocuments.replacePdf(request.params.id, file, request.userId);
  });

  app.get('/:id/pdf', { schema: downloadPdf }, async (request, reply) => {
    const { number, pdf } = await conformityDocuments.pdf(request.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', attachmentDisposition(documentFileName(number)))
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  app.get('/:id/products', { schema: coveredProducts }, (request) =>
    conformityDocuments.coveredProducts(request.params.id),
  );

  app.put('/:id/products', { schema: setCoveredProducts }, (request) =>
    conformityDocuments.setCoveredProducts(request.params.id, request.body.products, request.userId),
  );

  app.delete('/:id', { schema: remove }, async (request, reply) => {
    await conformityDocuments.remove(request.params.id, request.userId);
    return reply.code(204).send(null);
  });
};

export default conformityDocumentsRoutes;
