import type { FastifyBaseLogger } from 'fastify';
import type { OrderService } from './orders';

export interface ReservationSweeperOptions {
  orders: Pick<OrderService, 'cancelLapsedReservation'>;
  /** RESERVATION_SWEEP_SECONDS. */
  intervalSeconds: number;
  log: FastifyBaseLogger;
  /** After a sweep that cancelled orders: their goods are on sale again. */
  onCancelled: (orderIds: number[]) => void;
}

/**
 * Cancels the unpaid orders whose reservation has lapsed, every RESERVATION_SWEEP_SECONDS, one
 * order per transaction (orders.cancelLapsedReservation). Every server process runs one: what
 * they must agree on is in the orders' rows and locks, so two sweeping at once cancel each order
 * once; this keeps only its timer.
 */
export class ReservationSweeper {
  private stopped = false;
  private running: Promise<number[]> | null = null;
  private next: Promise<number[]> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: ReservationSweeperOptions) {
    // A tick that finds a sweep still under way lets it be.
    this.timer = setInterval(() => {
      if (!this.running) void this.sweep();
    }, options.intervalSeconds * 1000).unref();
  }

  /**
   * Sweeps now; if a sweep is under way (which may have looked before the caller's change), one
   * more follows it. Resolves with the orders this sweep cancelled.
   */
  sweep(): Promise<number[]> {
    if (this.running) {
      this.next ??= this.running.then(() => {
        this.next = null;
        return this.sweep();
      });
      return this.next;
    }
    this.running = this.cancelLapsed().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Takes no further order and waits for the one being cancelled (a transaction of milliseconds). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await (this.next ?? this.running);
  }

  private async cancelLapsed(): Promise<number[]> {
    const { orders, log, onCancelled } = this.options;
    const cancelled: number[] = [];
    try {
      while (!this.stopped) {
        const orderId = await orders.cancelLapsedReservation();
        if (orderId === null) break;
        cancelled.push(orderId);
      }
    } catch (error) {
      // The database is unreachable or closing: the orders wait for the next sweep.
      log.warn({ err: error }, 'reservation sweep failed, will try again');
    }
    if (cancelled.length > 0) {
      log.info({ orderIds: cancelled }, 'unpaid orders cancelled: their reservation lapsed');
      onCancelled(cancelled);
    }
    return cancelled;
  }
}
