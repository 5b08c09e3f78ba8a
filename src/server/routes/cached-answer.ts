import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer, ContentEncoding } from '../services/catalogue-cache';

const ENCODINGS: ContentEncoding[] = ['br', 'gzip'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Its answered anonymous reads have an access line one in ACCESS_LOG_SAMPLE (app.ts, RequestLog). */
    sampledAccessLog?: boolean;
  }
}

/**
 * Route options of the routes that send cached answers, the public catalogue's: compressed once,
 * in the cache (@fastify/compress's hooks would only look at each), and their access lines sampled.
 */
export const CACHED_READ = { compress: false, decompress: false, config: { sampledAccessLog: true } } as const;

/**
 * Sends an answer from the catalogue cache with its ETag, so that a client that has it gets a
 * bodiless 304, compressed as the client accepts (each encoding made once, in the cache).
 */
export async function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  { type, cacheControl }: { type: string; cacheControl: string },
) {
  reply.header('cache-control', cacheControl).header('etag', answer.etag).header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  reply.type(type);
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? (negotiate(accepted.toLowerCase(), ENCODINGS) as ContentEncoding | null) : null;
  if (!encoding) return reply.send(answer.body);
  return reply.header('content-encoding', encoding).send(await answer.compressed(encoding));
}
