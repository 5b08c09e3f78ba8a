import { negotiate } from '@fastify/accept-negotiator';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeptAnswer } from '../kept-reads';
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
 * How a kind of cached read is answered: its type, its caching and what it varies by. One constant
 * per kind: what is made of a kept answer is kept per options object (`made`).
 */
export interface AnswerOptions {
  type: string;
  cacheControl: string;
  vary?: string;
}

type Variant = 'not-modified' | 'identity' | ContentEncoding;

/**
 * What each kept answer is sent as, per kind of read and variant: the same objects for every
 * request, so that answering a kept read makes no headers anew (kept-reads.ts); gone with the answer.
 */
const made = new WeakMap<CachedAnswer, Map<AnswerOptions, Partial<Record<Variant, KeptAnswer>>>>();

function madeOnce(answer: CachedAnswer, options: AnswerOptions, variant: Variant, make: () => KeptAnswer): KeptAnswer {
  let byOptions = made.get(answer);
  if (!byOptions) made.set(answer, (byOptions = new Map()));
  let variants = byOptions.get(options);
  if (!variants) byOptions.set(options, (variants = {}));
  return (variants[variant] ??= make());
}

/**
 * A cached answer as sent to a request with these headers: a bodiless 304 when the client has it
 * (its ETag), else compressed as the client accepts; `compressing` instead while that encoding is
 * still to be made (each encoding is made once, in the cache). Both the route and the kept reads in
 * front of the router (kept-reads.ts) answer with it.
 */
export function cachedAnswerFor(
  requestHeaders: IncomingHttpHeaders,
  answer: CachedAnswer,
  options: AnswerOptions,
): KeptAnswer | { compressing: Promise<Buffer>; headers: Record<string, string> } {
  const { type, cacheControl, vary = 'accept-encoding' } = options;
  // Before the 304 too: a browser keeps the headers of a 304 as the stored answer's.
  const common = () => ({ 'cache-control': cacheControl, etag: answer.etag, vary, ...answer.headers });
  if (requestHeaders['if-none-match'] === answer.etag) {
    return madeOnce(answer, options, 'not-modified', () => ({ status: 304, headers: common() }));
  }
  const encoding = encodingFor(requestHeaders['accept-encoding']);
  if (!encoding) {
    return madeOnce(answer, options, 'identity', () => ({
      status: 200,
      headers: { ...common(), 'content-type': type },
      body: answer.body,
    }));
  }
  const headers = () => ({ ...common(), 'content-type': type, 'content-encoding': encoding });
  const body = answer.compressedNow(encoding);
  if (!body) return { compressing: answer.compressed(encoding), headers: headers() };
  return madeOnce(answer, options, encoding, () => ({ status: 200, headers: headers(), body }));
}

/** `cachedAnswerFor` if it can be sent at once (kept-reads.ts's AnswerNow). */
export function cachedAnswerNow(
  requestHeaders: IncomingHttpHeaders,
  answer: CachedAnswer,
  options: AnswerOptions,
): KeptAnswer | undefined {
  const sent = cachedAnswerFor(requestHeaders, answer, options);
  return 'compressing' in sent ? undefined : sent;
}

/**
 * Sends an answer from the catalogue cache (`cachedAnswerFor`). Sent at once (undefined, a
 * synchronous handler's "sent") unless the encoding is still to be made.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  options: AnswerOptions,
): Promise<void> | undefined {
  const sent = cachedAnswerFor(request.headers, answer, options);
  if (!('compressing' in sent)) {
    reply.code(sent.status).headers(sent.headers).send(sent.body);
    return undefined;
  }
  reply.headers(sent.headers);
  return sent.compressing.then((bytes) => {
    reply.send(bytes);
  });
}
