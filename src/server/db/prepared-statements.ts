import { sql } from 'drizzle-orm';

/**
 * Put first in a statement's text, it has PostgreSQL parse and plan the statement once per pooled
 * connection (a named prepared statement) instead of at every run. For the few hot statements whose
 * text takes a few fixed shapes, whatever their values (placing an order: docs/performance.md);
 * a comment to PGlite, which has no pool to prepare on.
 */
const PREPARED_MARK = '/* prepared */ ';
export const PREPARED = sql.raw(PREPARED_MARK);
/** More shapes than this means a marked statement's text varies with its values: it is then sent unnamed. */
const MAX_PREPARED_SHAPES = 64;

/**
 * Each prepared shape's name, the same on every connection (node-postgres prepares a name on a
 * connection the first time that connection runs it, and refuses one name for two texts).
 */
export function preparedNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_SHAPES) {
      name = `shop_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** `query` naming the statements marked PREPARED, as node-postgres prepares them (drizzle passes a config object). */
export function preparing<Query>(query: Query, nameOf: (text: string) => string | undefined): Query {
  const run = query as (...args: unknown[]) => unknown;
  return ((...args: unknown[]) => {
    const config = args[0] as { text?: unknown; name?: string } | null;
    if (config && typeof config === 'object' && config.name === undefined && typeof config.text === 'string') {
      if (config.text.startsWith(PREPARED_MARK)) {
        const name = nameOf(config.text);
        if (name) args[0] = { ...config, name };
      }
    }
    return run(...args);
  }) as Query;
}
