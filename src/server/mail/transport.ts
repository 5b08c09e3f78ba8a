import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { MailConfig } from '../config';

export interface MailTransport {
  /** Sends the message; without SMTP it is written to `<dir>/<fileName>.eml`, whose path is answered. */
  send(message: SendMailOptions, fileName: string): Promise<string | null>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written whole (RFC 822, as it would have
 * been sent) into the mail directory, where a mail program opens it: a shop run on one's own
 * machine needs no mail server to see what it sends.
 */
export function createMailTransport(config: MailConfig): MailTransport {
  if (config.smtpUrl) {
    // Timeouts well inside the sender's lease (MAIL_LEASE_SECONDS), so a hung server cannot keep
    // a message past it and have another process send it meanwhile.
    const smtp = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    return {
      async send(message) {
        await smtp.sendMail(message);
        return null;
      },
      close: () => smtp.close(),
    };
  }
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message, fileName) {
      const { message: raw } = await composer.sendMail(message);
      // Letters hold buyers' names, addresses and reset links: for the shop's own account only.
      // (A directory that already exists keeps its mode; the operator's choice.)
      await mkdir(config.dir, { recursive: true, mode: 0o700 });
      const file = path.join(config.dir, `${fileName}.eml`);
      await writeFile(file, raw as Buffer, { mode: 0o600 });
      return file;
    },
    close: () => composer.close(),
  };
}
