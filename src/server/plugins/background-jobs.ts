import fp from 'fastify-plugin';
import { MAIL_CHANNEL } from '../db/notifications';
import { OutboxSender } from '../services/outbox-sender';
import { createMailTransport } from '../mail/transport';
import { ReservationSweeper } from '../services/reservation-sweeper';
import { createSignInThrottle, LETTER_LIMITS } from '../services/sign-in-throttle';

declare module 'fastify' {
  interface FastifyInstance {
    outboxSender: OutboxSender;
    reservationSweeper: ReservationSweeper;
  }
}

/** How often the attempts, reset requests and quick-order imports no window counts any more are deleted. */
const WINDOWS_PURGE_INTERVAL_MS = 60 * 1000;
/** The 1С exchange's long-unused sessions and its files kept past EXCHANGE_FILES_KEEP_DAYS are deleted this often. */
const EXCHANGE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Revocations older than every access token issued before them are deleted this often. */
const REVOCATIONS_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The work every server process does besides answering requests, all started here: the outbox's
 * sender, the sweep of lapsed reservations, the 1С exchange's old files and sessions, and the purges of what the throttling windows and the
 * revocation list no longer count. What the processes must agree on is in the database, so each
 * runs them alike.
 */
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

    const sweeper = new ReservationSweeper({
      orders: app.services.orders,
      intervalSeconds: app.config.reservation.sweepSeconds,
      log: app.log.child({ part: 'reservations' }),
      // Other processes hear of it from the transaction's own announcement; this one at once.
      onCancelled: (orderIds) => {
        app.catalogueCache.invalidate();
        app.metrics.ordersCancelled.inc({ by: 'expiry' }, orderIds.length);
      },
    });
    app.decorate('reservationSweeper', sweeper);
    // Before the database closes (onClose hooks run in reverse order of registration).
    app.addHook('onClose', () => sweeper.stop());

    const { quickOrderImports, resetRequests, revokedSessions, signInAttempts } = app.repositories;
    const throttle = createSignInThrottle(signInAttempts, app.config);
    const purgeWindows = () =>
      Promise.all([
        Promise.all([throttle.purge(), resetRequests.purge(LETTER_LIMITS.perAddress.windowMs)]).catch(
          (error: unknown) => app.log.warn({ err: error }, 'purging sign-in attempts or reset requests failed'),
        ),
        quickOrderImports
          .purge(app.config.buyerLimits.quickOrderImports.windowMs)
          .catch((error: unknown) => app.log.warn({ err: error }, 'purging quick-order imports failed')),
      ]);
    const purgeRevocations = () =>
      revokedSessions
        .purgeOlderThan(app.sessionRevocations.keepSeconds)
        .catch((error: unknown) => app.log.warn({ err: error }, 'revoked sessions not purged'));
    const sweepExchange = () =>
      app.services.exchangeEndpoint
        .sweep()
        .catch((error: unknown) => app.log.warn({ err: error }, 'exchange files or sessions not swept'));
    const timers = [
      setInterval(sweepExchange, EXCHANGE_SWEEP_INTERVAL_MS).unref(),
      setInterval(purgeWindows, WINDOWS_PURGE_INTERVAL_MS).unref(),
      setInterval(purgeRevocations, REVOCATIONS_PURGE_INTERVAL_MS).unref(),
    ];
    app.addHook('onClose', async () => timers.forEach((timer) => clearInterval(timer)));
  },
  {
    name: 'background-jobs',
    dependencies: ['config', 'database', 'services', 'authentication', 'catalogue-cache', 'metrics'],
  },
);
