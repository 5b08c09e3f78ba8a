import fp from 'fastify-plugin';
import { OutboxSender } from '../mail/outbox-sender';
import { createMailTransport } from '../mail/transport';
import { MAIL_CHANNEL } from '../db/notifications';

declare module 'fastify' {
  interface FastifyInstance {
    outboxSender: OutboxSender;
  }
}

/** Sends the messages queued in the outbox (repositories/outbox), from every server process alike. */
export default fp(
  async (app) => {
    const { mail } = app.config;
    if (!mail.smtpUrl)
      app.log.info({ dir: mail.dir }, `no SMTP_URL: messages are written as .eml files to ${mail.dir}`);
    const sender = new OutboxSender({
      config: mail,
      outbox: app.repositories.outbox,
      invoices: app.repositories.invoices,
      orders: app.repositories.orders,
      transport: createMailTransport(mail),
      log: app.log.child({ part: 'mail' }),
      onAttempt: (outcome) => app.metrics.mailDelivery.inc({ outcome }),
    });
    app.decorate('outboxSender', sender);
    const stopListening = await app.database.listen(MAIL_CHANNEL, {
      onNotify: () => sender.wake(),
      onLost: () => {},
      onRestored: () => sender.wake(),
    });
    // Once the server has stopped taking requests and answered those in flight, and before the
    // database closes (onClose hooks run in reverse order of registration), so the message in flight
    // can still be marked sent.
    app.addHook('onClose', async () => {
      await stopListening();
      await sender.stop();
    });
    // Messages left by the previous run (or queued while no server ran) go out at start.
    app.addHook('onReady', async () => sender.wake());
  },
  { name: 'mail', dependencies: ['config', 'database', 'metrics'] },
);
