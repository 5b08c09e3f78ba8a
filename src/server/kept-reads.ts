import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** What a kept read sends: its status, its headers but the connection's own, and its body (none for a 304). */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * The answer a remembered read has now for a request with these headers, without waiting for
 * anything (the same object for the same answer, never changed); undefined when it has none (not
 * kept, a caller not known yet, an encoding still to be made): the request then goes through the
 * router as any other.
 */
export type AnswerNow = (headers: IncomingHttpHeaders) => KeptAnswer | undefined;

/** A read answered, as the access log and the metrics take it (`ms` from its arrival to its answer). */
export interface AnsweredRead {
  method: string;
  url: string;
  /** The route's pattern, never the raw address. */
  route: string | undefined;
  statusCode: number;
  ms: number;
}

/** What the app does for every answered request, which these answers must do too. */
export interface AnsweredDuties {
  /** False while the process drains or closes: answers then say `Connection: close` (app.ts). */
  answersNow(): boolean;
  /** The headers every API answer carries (security-headers.ts). */
  apiHeaders: Readonly<Record<string, string>>;
  /** The access line (sampled) and the request metrics of an answered read. */
  completed(read: AnsweredRead): void;
}

interface Remembered {
  route: string;
  answerNow: AnswerNow;
}

/** Enough for every page, filter and product of the catalogue that is asked for often. */
const MAX_REMEMBERED = 4096;
/** Longer addresses (long searches, many filters) are rare and would hold the memory. */
const MAX_URL_LENGTH = 512;

/**
 * The public catalogue's kept answers, sent before Fastify's router sees the request: a cached
 * read spent two fifths of its CPU in the framework's request and reply objects, its hooks and
 * its validation around an answer that was already made (docs/performance.md, issue 39 item 7).
 *
 * Only a request whose exact address a route has answered before from the catalogue cache is
 * answered here (`remember`): the route validated that address then, and validating the same
 * string gives the same result, so what the route would check again is already known. Everything
 * else the router would do differently goes to it: another method, a body, no Host, a caller the
 * process has not identified yet, an answer not kept or not compressed yet, the process draining.
 * What every answer carries here is what the hooks would have added (the API's security headers,
 * the access line and the request metrics); the route decides the rest through `answerNow`, the
 * same function it answers with (routes/cached-answer.ts), so the two paths cannot drift apart.
 */
export class KeptReads {
  private readonly remembered = new Map<string, Remembered>();
  private duties: AnsweredDuties | undefined;
  /** Each answer's headers as sent here, made once: `answerNow` gives the same answer object each time. */
  private readonly sentHeaders = new WeakMap<KeptAnswer, Record<string, string | number>>();
  /** Requests answered here, for the metrics. */
  answered = 0;

  /** From the route, after it answered `url` with a kept answer: later requests for it are answered here. */
  remember(url: string, route: string, answerNow: AnswerNow): void {
    if (url.length > MAX_URL_LENGTH || this.remembered.has(url)) return;
    // Whoever asks for countless addresses only makes the often-asked ones pass the router once more.
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(url, { route, answerNow });
  }

  /** Once the app's hooks are in place: until then nothing is answered here. */
  start(duties: AnsweredDuties): void {
    this.duties = duties;
  }

  /** The server's request listener: kept reads answered here, every other request handed to `router`. */
  before(router: (request: IncomingMessage, response: ServerResponse) => void) {
    return (request: IncomingMessage, response: ServerResponse): void => {
      if (!this.answer(request, response)) router(request, response);
    };
  }

  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const { duties } = this;
    if (request.method !== 'GET' || duties === undefined) return false;
    const url = request.url ?? '';
    const read = this.remembered.get(url);
    if (!read) return false;
    const { headers } = request;
    // Refused by the error handler's hook (no Host), or a body Fastify would read first.
    if (headers.host === undefined || headers['content-length'] !== undefined || headers['transfer-encoding']) {
      return false;
    }
    if (!duties.answersNow()) return false;
    let answer: KeptAnswer | undefined;
    try {
      answer = read.answerNow(headers);
      if (!answer) return false;
      // Throws, if ever, before anything is written: the router can still answer.
      response.writeHead(answer.status, this.headersOf(answer, duties));
    } catch {
      // A throw here would end the process: the router answers instead, its error handler included.
      return false;
    }
    response.end(answer.body);
    this.answered += 1;
    // Until the answer is handed to the socket (Fastify's own timing waits for it to be flushed).
    const ms = performance.now() - started;
    duties.completed({ method: 'GET', url, route: read.route, statusCode: answer.status, ms });
    return true;
  }

  /** An answer's headers as written here, made once per answer. */
  private headersOf(answer: KeptAnswer, duties: AnsweredDuties): Record<string, string | number> {
    let sent = this.sentHeaders.get(answer);
    if (!sent) {
      // The response is ended with its whole body at once: Node would count it, but not once
      // writeHead has been given the headers.
      sent = { ...duties.apiHeaders, ...answer.headers, ...(answer.body && { 'content-length': answer.body.length }) };
      this.sentHeaders.set(answer, sent);
    }
    return sent;
  }
}
