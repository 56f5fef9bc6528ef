/**
 * Background checks while a checkout waits for a result it cannot ask for (an unknown outcome,
 * or the payer back from the bank's page): the first after `interval()`, then 1.5 times later
 * each time, up to a minute. The wait starts over when what is awaited changes. Stops when the
 * element leaves the page and starts again when it comes back. A wait with a window (an
 * unknown outcome, which only the shop can settle) stops once the window is over: `gaveUp`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { pollDelay } from '../logic/redirect.js';
import type { Clock } from '../shared/clock.js';

export class PollController implements ReactiveController {
  /** Cancels the check that is due, if any. */
  private cancel: (() => void) | undefined;
  /** What is awaited (null: nothing), and the checks made for it so far. */
  private key: string | null = null;
  private attempt = 0;
  private since = 0;
  private windowMs: number | undefined;
  /** The current wait's window ended without an answer. */
  gaveUp = false;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly interval: () => number,
    private readonly check: () => void,
    /** The host's clock (read each time: the host may be given another). */
    private readonly clock: () => Pick<Clock, 'now' | 'after'>,
  ) {
    host.addController(this);
  }

  /** Waits for `key` (a new key starts the backoff over), at most `windowMs` when given; null stops. */
  schedule(key: string | null, windowMs?: number): void {
    this.stop();
    if (key !== this.key) {
      this.attempt = 0;
      this.since = this.clock().now();
      this.gaveUp = false;
      this.windowMs = windowMs;
    }
    this.key = key;
    if (key === null || !this.host.isConnected || this.gaveUp) return;
    if (this.windowMs !== undefined && this.clock().now() - this.since > this.windowMs) {
      this.gaveUp = true;
      this.host.requestUpdate();
      return;
    }
    this.cancel = this.clock().after(pollDelay(this.attempt++, this.interval()), this.check);
  }

  hostConnected(): void {
    if (this.key !== null) this.schedule(this.key, this.windowMs);
  }

  hostDisconnected(): void {
    this.stop();
  }

  private stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }
}
