import type {
  ConformityDocument,
  ConformityDocumentFields,
  ConformityDocumentPatch,
  ConformityProduct,
} from '@shared/api';
import { downloadFile } from '@/api/download';
import { adminBaseApi } from '../adminBaseApi';

const DOCUMENTS = 'api/v1/admin/conformity-documents';

/** A refused change changed nothing: the list (and a product's document, the journal) go stale only once it succeeded. */
const changed = (_answer: unknown, error: unknown) =>
  error ? [] : (['ConformityDocument', 'AdminProduct', 'Audit'] as const);

/** The document's fields and its PDF, as the server reads the form. */
function documentForm(fields: ConformityDocumentFields, pdf: File): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', pdf);
  return body;
}

function pdfForm(pdf: File): FormData {
  const body = new FormData();
  body.append('file', pdf);
  return body;
}

/** The back office's «Документы соответствия»: сертификаты and декларации, their PDFs and the products each covers. */
export const conformityDocumentsApi = adminBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getConformityDocuments: build.query<ConformityDocument[], void>({
      query: () => DOCUMENTS,
      providesTags: ['ConformityDocument'],
    }),
    createConformityDocument: build.mutation<ConformityDocument, { fields: ConformityDocumentFields; pdf: File }>({
      query: ({ fields, pdf }) => ({ url: DOCUMENTS, method: 'POST', body: documentForm(fields, pdf) }),
      invalidatesTags: changed,
    }),
    updateConformityDocument: build.mutation<ConformityDocument, { id: number; patch: ConformityDocumentPatch }>({
      query: ({ id, patch }) => ({ url: `${DOCUMENTS}/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: changed,
    }),
    replaceConformityPdf: build.mutation<ConformityDocument, { id: number; pdf: File }>({
      query: ({ id, pdf }) => ({ url: `${DOCUMENTS}/${id}/pdf`, method: 'PUT', body: pdfForm(pdf) }),
      invalidatesTags: changed,
    }),
    deleteConformityDocument: build.mutation<unknown, number>({
      query: (id) => ({ url: `${DOCUMENTS}/${id}`, method: 'DELETE' }),
      invalidatesTags: changed,
    }),
    getCoveredProducts: build.query<ConformityProduct[], number>({
      query: (id) => `${DOCUMENTS}/${id}/products`,
      providesTags: ['ConformityDocument'],
    }),
    setCoveredProducts: build.mutation<ConformityProduct[], { id: number; products: number[] }>({
      query: ({ id, products }) => ({ url: `${DOCUMENTS}/${id}/products`, method: 'PUT', body: { products } }),
      invalidatesTags: changed,
    }),
    // A mutation, not a query: every click fetches the file anew and nothing is cached.
    downloadConformityPdf: build.mutation<string, ConformityDocument>({
      queryFn: downloadFile(
        ({ id }) => `${DOCUMENTS}/${id}/pdf`,
        ({ number }) => `${number}.pdf`,
      ),
    }),
  }),
});

export const {
  useGetConformityDocumentsQuery,
  useCreateConformityDocumentMutation,
  useUpdateConformityDocumentMutation,
  useReplaceConformityPdfMutation,
  useDeleteConformityDocumentMutation,
  useGetCoveredProductsQuery,
  useSetCoveredProductsMutation,
  useDownloadConformityPdfMutation,
} = conformityDocumentsApi;
