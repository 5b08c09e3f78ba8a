import type { QueryObserver } from './database';

/**
 * `query` timed: from the call until its promise settles or its callback is called (pg-pool calls
 * its clients with a callback; drizzle awaits a promise). A query object with its own `submit`
 * (a cursor, a stream) goes untimed: the shop sends none.
 */
export function timed<Query>(query: Query, observe: QueryObserver): Query {
  const run = query as (...args: unknown[]) => unknown;
  return ((...args: unknown[]) => {
    const started = performance.now();
    const done = () => observe((performance.now() - started) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        done();
        return (callback as (...results: unknown[]) => unknown)(...results);
      };
      return run(...args);
    }
    const result = run(...args);
    // A handler for both outcomes, so the copy this makes never rejects unhandled.
    if (result instanceof Promise) result.then(done, done);
    return result;
  }) as Query;
}
