/**
 * A real SMTP server for the mail tests (the `smtp-server` package on a free port of 127.0.0.1):
 * what the shop sends arrives here over SMTP and is parsed back with `mailparser`. It can be
 * stopped and started again on the same port (a mail server that is down), made to answer every
 * message with a reply code (451: try later, 550: refused), or to take a message and keep the
 * sender waiting for the reply (a crash between "sent" and "marked sent").
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  parsed: ParsedMail;
}

export type SmtpMode = { answer: 'accept' } | { answer: 'reply'; code: number } | { answer: 'hold' };

export interface TestSmtp {
  port: number;
  /** The SMTP_URL the shop sends through. */
  url: string;
  received: ReceivedMail[];
  mode: SmtpMode;
  listening: boolean;
  /** Messages are taken (and kept) but not answered until `release` (mode 'hold'). */
  release(): void;
  stop(): Promise<void>;
  /** Listens again, on the same port. */
  start(): Promise<void>;
  /** Resolves once `count` messages have arrived in all, or throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startTestSmtp(): Promise<TestSmtp> {
  let held: (() => void)[] = [];
  let server: SMTPServer;
  const smtp: TestSmtp = {
    port: 0,
    url: '',
    received: [],
    mode: { answer: 'accept' },
    listening: false,
    release() {
      for (const answer of held) answer();
      held = [];
    },
    async stop() {
      if (!smtp.listening) return;
      smtp.listening = false;
      smtp.release();
      await new Promise<void>((resolve) => server.close(resolve));
    },
    async start() {
      server = new SMTPServer({
        authOptional: true,
        // The shop would upgrade to TLS when offered, and refuse this server's self-signed certificate.
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        closeTimeout: 100,
        onData(stream, session, callback) {
          void readAll(stream).then(async (raw) => {
            const mode = smtp.mode;
            if (mode.answer === 'reply') {
              callback(Object.assign(new Error(`test server answers ${mode.code}`), { responseCode: mode.code }));
              return;
            }
            smtp.received.push({
              to: session.envelope.rcptTo.map(({ address }) => address),
              parsed: await simpleParser(raw),
            });
            if (mode.answer === 'hold') held.push(() => callback());
            else callback();
          });
        },
      });
      server.listen(smtp.port, '127.0.0.1');
      await once(server.server, 'listening');
      smtp.port = (server.server.address() as AddressInfo).port;
      smtp.url = `smtp://127.0.0.1:${smtp.port}`;
      smtp.listening = true;
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (smtp.received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`${smtp.received.length} of ${count} messages arrived within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return smtp.received;
    },
  };
  await smtp.start();
  return smtp;
}
