/**
 * Background checks while a checkout waits for a result it cannot ask for (an unknown outcome,
 * or the payer back from the bank's page): the first after `interval()`, then 1.5 times later
 * each time, up to a minute. The wait starts over when what is awaited changes. Stops when the
 * element leaves the page and starts again when it comes back.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { pollDelay } from '../logic/redirect.js';

export class PollController implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** What is awaited (null: nothing), and the checks made for it so far. */
  private key: string | null = null;
  private attempt = 0;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly interval: () => number,
    private readonly check: () => void,
  ) {
    host.addController(this);
  }

  /** Waits for `key` (a new key starts the backoff over); null stops. */
  schedule(key: string | null): void {
    clearTimeout(this.timer);
    if (key !== this.key) this.attempt = 0;
    this.key = key;
    if (key !== null && this.host.isConnected) this.timer = setTimeout(this.check, pollDelay(this.attempt++, this.interval()));
  }

  hostConnected(): void {
    if (this.key !== null) this.schedule(this.key);
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }
}
