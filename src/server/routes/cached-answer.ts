import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer, ContentEncoding } from '../services/catalogue-cache';

const ENCODINGS: ContentEncoding[] = ['br', 'gzip'];

/**
 * The encoding chosen for each Accept-Encoding value seen, up to a few: browsers send a handful of
 * spellings, and negotiating anew was 8% of what our own code spent on a cached read (--cpu-prof).
 */
const chosenEncodings = new Map<string, ContentEncoding | null>();
const MAX_REMEMBERED_ACCEPTS = 32;

function encodingFor(accepted: string | undefined): ContentEncoding | null {
  if (!accepted) return null;
  let chosen = chosenEncodings.get(accepted);
  if (chosen === undefined) {
    chosen = negotiate(accepted.toLowerCase(), ENCODINGS) as ContentEncoding | null;
    if (chosenEncodings.size < MAX_REMEMBERED_ACCEPTS) chosenEncodings.set(accepted, chosen);
  }
  return chosen;
}

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
 * bodiless 304, compressed as the client accepts (each encoding made once, in the cache). Sent at
 * once (undefined, a synchronous handler's "sent") unless the encoding is still to be made.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  { type, cacheControl, vary = 'accept-encoding' }: { type: string; cacheControl: string; vary?: string },
): Promise<void> | undefined {
  reply.header('cache-control', cacheControl).header('etag', answer.etag).header('vary', vary);
  // Before the 304 too: a browser keeps the headers of a 304 as the stored answer's.
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  if (request.headers['if-none-match'] === answer.etag) {
    reply.code(304).send();
    return undefined;
  }
  reply.type(type);
  const encoding = encodingFor(request.headers['accept-encoding']);
  if (!encoding) {
    reply.send(answer.body);
    return undefined;
  }
  reply.header('content-encoding', encoding);
  const made = answer.compressedNow(encoding);
  if (made) {
    reply.send(made);
    return undefined;
  }
  return answer.compressed(encoding).then((bytes) => {
    reply.send(bytes);
  });
}
