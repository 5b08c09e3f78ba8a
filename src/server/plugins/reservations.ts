import fp from 'fastify-plugin';
import { ReservationSweeper } from '../services/reservation-sweeper';

declare module 'fastify' {
  interface FastifyInstance {
    reservationSweeper: ReservationSweeper;
  }
}

/** Cancels lapsed unpaid orders (services/reservation-sweeper), from every server process alike. */
export default fp(
  async (app) => {
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
  },
  { name: 'reservations', dependencies: ['config', 'services', 'catalogue-cache', 'metrics'] },
);
