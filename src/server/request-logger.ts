import type { FastifyBaseLogger, LogLevel } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LogMethod = 'info' | 'error' | 'debug' | 'fatal' | 'warn' | 'trace' | 'silent';

/**
 * `request.log`, made only when a line is logged through it. Fastify makes a pino child per request
 * (to carry its reqId), and pino runs the redaction paths over a child's bindings when it is made:
 * 4–5% of a cached catalogue read's CPU, for a logger that a request answered well never uses (its
 * access line is written by the app's log controller; docs/performance.md). The child made on first
 * use is the one Fastify would have made: same bindings, options and redaction.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LogLevel {
    return (this.made ?? this.parent).level as LogLevel;
  }

  set level(level: LogLevel) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private forward(method: LogMethod, args: unknown[]): void {
    (this.logger[method] as (...line: unknown[]) => void)(...args);
  }

  info(...args: unknown[]): void {
    this.forward('info', args);
  }

  error(...args: unknown[]): void {
    this.forward('error', args);
  }

  debug(...args: unknown[]): void {
    this.forward('debug', args);
  }

  fatal(...args: unknown[]): void {
    this.forward('fatal', args);
  }

  warn(...args: unknown[]): void {
    this.forward('warn', args);
  }

  trace(...args: unknown[]): void {
    this.forward('trace', args);
  }

  silent(...args: unknown[]): void {
    this.forward('silent', args);
  }
}

/** Fastify's `childLoggerFactory`: see RequestLogger. */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options);
}
