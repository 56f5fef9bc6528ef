/**
 * Boot waits for the database. A database that is down, starting, failing over or busy with
 * several instances starting together answers with unavailability (a refused or timed-out
 * connection, a server starting up): boot tries again with backoff, one log line per wait,
 * until the store opens or the deadline (`DATABASE_BOOT_WAIT_SECONDS`, 60 by default) passes.
 * Anything else (a wrong password, a schema it cannot migrate) stops boot at once: waiting would
 * not mend it.
 */
import { isUnavailable } from './failure.js';

export interface BootWait {
  /** Opens the store (migrates it once); rejects when it cannot. */
  open: () => Promise<void>;
  /** How long to keep trying, in milliseconds. */
  deadlineMs: number;
  /** Told of each wait: why, how long until the next try, and how long is left. */
  onWait: (wait: { reason: string; attempt: number; nextInMs: number; leftMs: number }) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Jitter in [0, 1) (instances starting together do not try together again). */
  random?: () => number;
}

/** The longest wait between two tries. */
const MAX_WAIT_MS = 5_000;

/** Thrown when the deadline passed with the store still unavailable: `cause` is its last error. */
export class BootTimeout extends Error {
  override readonly name = 'BootTimeout';
}

export async function openStoreAtBoot(b: BootWait): Promise<void> {
  const now = b.now ?? (() => performance.now());
  const sleep = b.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = b.random ?? Math.random;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      await b.open();
      return;
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      const leftMs = b.deadlineMs - (now() - started);
      if (leftMs <= 0) throw new BootTimeout(`no answer within ${Math.round(b.deadlineMs / 1000)} s`, { cause: err });
      const base = Math.min(MAX_WAIT_MS, 250 * 2 ** Math.min(attempt - 1, 5));
      const nextInMs = Math.min(leftMs, Math.round(base * (0.75 + random() * 0.5)));
      b.onWait({ reason: err instanceof Error ? err.message : String(err), attempt, nextInMs, leftMs });
      await sleep(nextInMs);
    }
  }
}
