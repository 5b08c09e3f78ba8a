/**
 * Phase 3: every operation of the served document, one fast-check property each: `runs` requests
 * from its own schemas, every answer checked against what the operation documents. A failing
 * request is shrunk to the simplest one that still fails.
 */
import fc from 'fast-check';
import { answerChecker, operationName, servedOperations, type Operation } from './openapi';
import { requestsFor, type FuzzRequest } from './requests';
import { newCast, type Cast, type FuzzShop } from './shop';

export interface FuzzSettings {
  /** Command sequences (phase 1), random requests (phase 2), requests per operation (phase 3), raw requests (phase 4). */
  runs: number;
  seed: number;
  /** Called after each operation or journey run: the long run prints progress with it. */
  progress?: (line: string) => void;
}

export interface OperationsReport {
  operations: number;
  requests: number;
  /** Per status, how many answers: shows the run got past the refusals. */
  statuses: Record<string, number>;
  /** One entry per failing operation: the shrunk request and what was wrong with its answer. */
  failures: string[];
}

/** Why a property failed: its error's message, or fast-check's reason (too many skips, interrupted). */
export function describeFailure<Values>(details: fc.RunDetails<Values>): string {
  if (!details.failed) return '';
  return details.errorInstance instanceof Error
    ? details.errorInstance.message
    : String(details.errorInstance ?? 'too many skipped runs');
}

/** The request as a line to paste into a test: method, URL, headers, the body's start. */
export function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : ` body ${JSON.stringify(String(request.payload).slice(0, 300))}`;
  return `${request.method} ${request.url} as ${request.actor} (broken: ${request.broken}) headers ${JSON.stringify(request.headers)}${payload}`;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/** Whether a concrete path is one the document's `path` names (each `{…}` any one segment). */
const names = (path: string, url: string) => {
  const documented = path.split('/');
  const concrete = url.split('/');
  return (
    documented.length === concrete.length && documented.every((part, i) => part.startsWith('{') || part === concrete[i])
  );
};

/**
 * Every documented path under every method the document does not list for it: 405 {detail} with
 * `Allow` naming exactly the documented methods (HEAD with GET), as RFC 9110 asks.
 */
async function wrongMethodProblems(fuzz: FuzzShop, operations: Operation[], cast: Cast): Promise<string[]> {
  const problems: string[] = [];
  const urls = new Set(operations.map((operation) => operation.path.replace(/\{[^}]+\}/g, '1')));
  for (const url of urls) {
    const allowed = new Set(
      operations.filter((operation) => names(operation.path, url)).map((operation) => operation.method),
    );
    if (allowed.has('GET')) allowed.add('HEAD');
    for (const method of METHODS.filter((candidate) => !allowed.has(candidate))) {
      const response = await fuzz.app.inject({ method: method as 'GET', url, headers: cast.manager.headers });
      const allow = String(response.headers.allow ?? '')
        .split(/,\s*/)
        .sort();
      // A HEAD answer has no body to carry the {detail}.
      const hasDetail = method === 'HEAD' || /^\{"detail":"[^"]+"\}$/.test(response.body);
      if (response.statusCode !== 405 || allow.join() !== [...allowed].sort().join() || !hasDetail) {
        problems.push(
          `${method} ${url}: expected 405 {detail} with Allow ${[...allowed].sort().join(', ')}, got ${response.statusCode} Allow «${response.headers.allow ?? ''}» ${response.body.slice(0, 200)}`,
        );
      }
    }
  }
  return problems;
}

export async function fuzzOperations(fuzz: FuzzShop, settings: FuzzSettings): Promise<OperationsReport> {
  const operations = await servedOperations(fuzz.app);
  const check = answerChecker();
  const report: OperationsReport = { operations: operations.length, requests: 0, statuses: {}, failures: [] };
  let cast: Cast | undefined;
  let previous: Operation | undefined;
  for (const [index, operation] of operations.entries()) {
    const startedAt = Date.now();
    // The accounts anew after an operation that may have changed them (deleted the account,
    // changed its password, emptied its cart…); reads leave them as they were.
    if (!cast || previous?.method !== 'GET') cast = await newCast(fuzz);
    previous = operation;
    const logged = fuzz.log.lines.length;
    const property = fc.asyncProperty(requestsFor(operation, cast, fuzz), async (request) => {
      const response = await fuzz.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      report.requests += 1;
      report.statuses[response.statusCode] = (report.statuses[response.statusCode] ?? 0) + 1;
      const problems = check(operation, response);
      if (request.omitted && response.statusCode < 400) {
        problems.push(
          `${operationName(operation)}: required ${request.omitted} left out, yet answered ${response.statusCode}`,
        );
      }
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
    // Each operation its own seed, derived from the run's: one operation's failure replays alone.
    const details = await fc.check(property, { numRuns: settings.runs, seed: settings.seed + index });
    if (details.failed) {
      const [request] = details.counterexample ?? [];
      const serverLines = fuzz.log.lines.slice(logged).join('').slice(0, 2000);
      report.failures.push(
        [
          `${operationName(operation)} (seed ${settings.seed + index}, path ${details.counterexamplePath}):`,
          `  request: ${request ? describeRequest(request) : '?'}`,
          `  ${String(describeFailure(details)).replaceAll('\n', '\n  ')}`,
          ...(serverLines ? [`  server log: ${serverLines}`] : []),
        ].join('\n'),
      );
    }
    settings.progress?.(
      `${index + 1}/${operations.length} ${operationName(operation)}: ${details.failed ? 'FAILED' : 'ok'} (${Date.now() - startedAt} ms)`,
    );
  }
  report.failures.push(...(await wrongMethodProblems(fuzz, operations, await newCast(fuzz))));
  return report;
}
