/**
 * Phase 1: every operation of the served document, one fast-check property each: `runs` requests
 * from its own schemas, every answer checked against what the operation documents. A failing
 * request is shrunk to the simplest one that still fails.
 */
import fc from 'fast-check';
import { answerChecker, operationName, servedOperations } from './openapi';
import { requestsFor, type FuzzRequest } from './requests';
import { newCast, type FuzzShop } from './shop';

export interface FuzzSettings {
  /** Requests per operation (phase 1) and command sequences (phase 2). */
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
  return details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'too many skipped runs');
}

/** The request as a line to paste into a test: method, URL, headers, the body's start. */
export function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : ` body ${JSON.stringify(String(request.payload).slice(0, 300))}`;
  return `${request.method} ${request.url} as ${request.actor} (broken: ${request.broken}) headers ${JSON.stringify(request.headers)}${payload}`;
}

export async function fuzzOperations(fuzz: FuzzShop, settings: FuzzSettings): Promise<OperationsReport> {
  const operations = await servedOperations(fuzz.app);
  const check = answerChecker();
  const report: OperationsReport = { operations: operations.length, requests: 0, statuses: {}, failures: [] };
  for (const [index, operation] of operations.entries()) {
    const startedAt = Date.now();
    const cast = await newCast(fuzz);
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
  return report;
}
