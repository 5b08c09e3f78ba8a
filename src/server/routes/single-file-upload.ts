import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TObject } from 'typebox';
import { ApiError, unprocessable } from '../api-error';

const ONE_FILE = 'Приложите ровно один файл';

/** `FST_…` codes of @fastify/multipart's refusals, answered in the shop's words. */
function refusal(error: unknown, maxBytes: number): ApiError | null {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError(413, `Файл больше ${Math.round(maxBytes / (1024 * 1024))} МБ`);
    case 'FST_FILES_LIMIT':
      return unprocessable(`${ONE_FILE}: в запросе их несколько`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return unprocessable(`${ONE_FILE} без лишних полей формы`);
    case 'FST_MP_PREMATURE_CLOSE':
      return unprocessable('Файл передан не полностью: соединение прервалось');
  }
  // busboy's own complaints about a malformed body ("Unexpected end of form", "Malformed part header"…).
  if (error instanceof Error && !(error instanceof ApiError) && code === undefined) {
    return unprocessable('Некорректная форма загрузки: файл передан не полностью или повреждён');
  }
  return null;
}

/** A form's only file, and its text fields by name (a field sent twice: its last value). */
export interface UploadedForm {
  file: Buffer;
  fields: Record<string, string>;
}

/** The request's only file and its fields; no file, two files or a broken form → 4xx {detail}. */
async function readForm(request: FastifyRequest, maxBytes: number): Promise<UploadedForm> {
  if (!request.isMultipart()) throw new ApiError(415, 'Отправьте файл формой multipart/form-data');
  let file: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') file = await part.toBuffer();
      else fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    throw refusal(error, maxBytes) ?? error;
  }
  if (file === undefined) throw unprocessable(`${ONE_FILE}: в запросе нет файла`);
  return { file, fields };
}

/**
 * The form a route reading one file takes, as its OpenAPI body (Swagger UI shows a file picker).
 * No `type`: the form's parts are read by the handler, so the body it validates is empty. `fields`:
 * the form's text fields besides the file, which the handler checks.
 */
export const singleFileForm = (description: string, fields?: TObject) => ({
  'multipart/form-data': {
    schema: Type.Unsafe({
      properties: { ...fields?.properties, file: { type: 'string', format: 'binary', description } },
      required: [...(fields?.required ?? []), 'file'],
    }),
  },
});

/**
 * Lets the calling route plugin (and only it: the storefront's routes keep refusing multipart
 * with 415) take forms with one file of at most `maxBytes`; answers the function that reads it.
 */
export async function acceptSingleFileUploads(
  app: FastifyInstance,
  maxBytes: number,
): Promise<(request: FastifyRequest) => Promise<Buffer>> {
  const readUploadedForm = await acceptSingleFileForms(app, maxBytes);
  return async (request) => (await readUploadedForm(request)).file;
}

/** As acceptSingleFileUploads, for forms whose text fields the route reads too (and checks itself). */
export async function acceptSingleFileForms(
  app: FastifyInstance,
  maxBytes: number,
): Promise<(request: FastifyRequest) => Promise<UploadedForm>> {
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20 } });
  return (request) => readForm(request, maxBytes);
}
