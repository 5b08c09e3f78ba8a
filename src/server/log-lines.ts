import type { DestinationStream } from 'pino';

interface Output {
  write(text: string): unknown;
}

/**
 * Log lines written together once per turn of the event loop instead of one write call each:
 * under load a turn completes dozens of requests, each with its line, and each line was a system
 * call of its own. No line waits beyond the turn it was logged in, and the writes
 * stay synchronous (stdout to a file or a pipe is, on Linux), so a slow reader slows the server
 * down instead of filling its memory, which is why pino's asynchronous destination was not used.
 */
export class LinesPerTurn implements DestinationStream {
  private pending = '';
  private scheduled = false;

  constructor(private readonly output: Output) {}

  write(line: string): void {
    this.pending += line;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.output.write(text);
  };
}

/** The server's log: standard output (server.ts writes what is pending when the process exits). */
export const stdoutLines = new LinesPerTurn(process.stdout);
