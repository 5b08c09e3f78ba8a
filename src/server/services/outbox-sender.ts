import type { FastifyBaseLogger } from 'fastify';
import type { NodemailerError, SendMailOptions } from 'nodemailer';
import type { MailConfig } from '../config';
import { invoiceFileNames } from '../invoices/invoicePdf';
import { keptInvoicePdf } from './invoice-pdf';
import type { InvoicesRepository } from '../repositories/invoices';
import type { OrdersRepository } from '../repositories/orders';
import { orderSheetFileName, writeOrderSheet } from './order-sheet';
import { SPREADSHEET_CONTENT_TYPES } from './spreadsheet-file';
import type { ClaimedMail, OutboxRepository } from '../repositories/outbox';
import type { MailTransport } from '../mail/transport';

/** A message that could not be sent for this long is given up, with an error in the log. */
const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
const MAX_RETRY_SECONDS = 60 * 60;
/** How long stopping waits for a send in flight; one cut off is sent again after its lease. */
const STOP_WAIT_MS = 5000;

/** How an attempt to send ended: sent, to be tried again, or given up. */
export type MailOutcome = 'sent' | 'retry' | 'failed';

export interface OutboxSenderOptions {
  config: MailConfig;
  outbox: OutboxRepository;
  invoices: InvoicesRepository;
  orders: Pick<OrdersRepository, 'findForSheet'>;
  transport: MailTransport;
  log: FastifyBaseLogger;
  /** Told of every attempt's outcome once it is recorded (the metrics). */
  onAttempt?: (outcome: MailOutcome) => void;
}

/** The Message-ID's domain: the sender's own (MAIL_FROM), as RFC 5322 advises. */
function senderDomain(from: string): string {
  return /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'myagkiy-opt.example';
}

const errorText = (error: unknown) =>
  error instanceof Error ? (error as NodemailerError).response || error.message : String(error);

/**
 * Sends what the outbox holds, one message at a time, whenever it is nudged (a message queued in
 * any process: OutboxRepository's queue) and every MAIL_POLL_MS besides (retries falling due, nudges missed).
 * Everything several processes must agree on is in the outbox's rows; this keeps only its timer.
 */
export class OutboxSender {
  private stopped = false;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private readonly timer: NodeJS.Timeout;
  private readonly domain: string;

  constructor(private readonly options: OutboxSenderOptions) {
    this.domain = senderDomain(options.config.from);
    this.timer = setInterval(() => this.wake(), options.config.pollMs).unref();
  }

  /** Looks at the outbox now (or, if it is being worked through, once more when that ends). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    this.running = this.sendDue().finally(() => {
      this.running = null;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.wake();
      }
    });
  }

  /** Stops taking messages and waits a little for the one being sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timeout = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timeout);
    this.options.transport.close();
  }

  private async sendDue(): Promise<void> {
    const { outbox, config, log } = this.options;
    try {
      while (!this.stopped) {
        const [mail] = await outbox.claim(1, config.leaseSeconds);
        if (!mail) return;
        await this.deliver(mail);
      }
    } catch (error) {
      // The database is unreachable or closing: the rows wait, and the next look tries again.
      log.warn({ err: error }, 'mail outbox not reachable, will look again');
    }
  }

  private async message(mail: ClaimedMail): Promise<SendMailOptions> {
    const { config, invoices, orders } = this.options;
    const message: SendMailOptions = {
      from: config.from,
      to: mail.recipient,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      // The same on every attempt: a message sent again (after a crash between the server's
      // answer and marking it sent) is recognisably a copy of the first.
      messageId: `<${mail.messageId}@${this.domain}>`,
      date: mail.createdAt,
    };
    const attachments: NonNullable<SendMailOptions['attachments']> = [];
    const issued = mail.invoiceOrderId === null ? null : await invoices.findIssued(mail.invoiceOrderId);
    if (issued) {
      const content = await keptInvoicePdf(invoices, mail.invoiceOrderId!, issued);
      attachments.push({ filename: invoiceFileNames(issued).name, content, contentType: 'application/pdf' });
    }
    // Drawn now from the order, whose lines never change once it is placed; its status is the
    // order's at sending, a moment after the letter's.
    const order = mail.sheetOrderId === null ? null : await orders.findForSheet(mail.sheetOrderId);
    if (order) {
      attachments.push({
        filename: orderSheetFileName(order.id),
        content: await writeOrderSheet(order),
        contentType: SPREADSHEET_CONTENT_TYPES.xlsx,
      });
    }
    if (attachments.length > 0) message.attachments = attachments;
    return message;
  }

  private async deliver(mail: ClaimedMail): Promise<void> {
    const { outbox, config, transport, log, onAttempt } = this.options;
    const about = { mailId: mail.id, to: mail.recipient, attempt: mail.attempts };
    let file: string | null;
    try {
      file = await transport.send(
        await this.message(mail),
        `${mail.createdAt.toISOString().replace(/[:.]/g, '-')}-${mail.id}`,
      );
    } catch (error) {
      const reason = errorText(error);
      if ((error as NodemailerError).permanent === true) {
        await outbox.markFailed(mail.id, reason);
        onAttempt?.('failed');
        log.error({ ...about, err: error }, 'mail refused by the SMTP server for good, not sent');
      } else if (Date.now() - mail.createdAt.getTime() >= GIVE_UP_AFTER_MS) {
        await outbox.markFailed(mail.id, reason);
        onAttempt?.('failed');
        log.error({ ...about, err: error }, 'mail not sent for a day, given up');
      } else {
        const seconds = Math.min(config.retrySeconds * 2 ** (mail.attempts - 1), MAX_RETRY_SECONDS);
        await outbox.retryAt(mail.id, new Date(Date.now() + seconds * 1000), reason);
        onAttempt?.('retry');
        log.warn({ ...about, retryInSeconds: seconds, err: error }, 'mail not sent, will retry');
      }
      return;
    }
    await outbox.markSent(mail.id);
    onAttempt?.('sent');
    if (file) log.info({ ...about, file }, `mail written to ${file}`);
    else log.info(about, 'mail sent');
  }
}
