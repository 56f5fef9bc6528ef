/**
 * Retention: the store forgets what is old enough (RETENTION_* in config.ts; which rows, in
 * store/retention.ts). A running BFF prunes every RETENTION_INTERVAL_MINUTES, one instance at a
 * time under a lease in the store; `bank-checkout-bff prune` does it once, and `--dry-run` says
 * what would go. With RETENTION_EXPORT_DIR, ended checkouts are appended to a JSON-lines file
 * there (one per day, flushed to disk) before they are deleted.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { BffConfig, RetentionConfig } from './config.js';
import { createStore } from './store/index.js';
import type { Logger } from './log.js';
import type { CheckoutRecord, PruneCounts, PruneCutoffs, Store } from './store/types.js';

const DAY_MS = 86_400_000;

/** The lease the periodic prune runs under. */
export const RETENTION_LEASE = 'retention';

export function pruneCutoffs(r: RetentionConfig, now: number): PruneCutoffs {
  return {
    events: now - r.eventsDays * DAY_MS,
    idempotency: now - r.idempotencyDays * DAY_MS,
    notifications: now - r.notificationsDays * DAY_MS,
    checkouts: now - r.checkoutsDays * DAY_MS,
  };
}

/**
 * Appends checkouts to `<dir>/checkouts-<YYYY-MM-DD>.jsonl`, one JSON object a line (the record
 * without its secret's hash), and waits until the file is on disk. The files hold payers' orders:
 * readable by the BFF's user alone (0600, in a directory made 0700), whatever the umask.
 */
export function checkoutExporter(dir: string, now: () => number) {
  return async (batch: CheckoutRecord[]) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = await open(join(dir, `checkouts-${new Date(now()).toISOString().slice(0, 10)}.jsonl`), 'a', 0o600);
    try {
      // A file made before (by another version, or by hand) is narrowed too.
      await file.chmod(0o600);
      await file.writeFile(batch.map(({ secretHash, ...rest }) => `${JSON.stringify(rest)}\n`).join(''));
      await file.sync();
    } finally {
      await file.close();
    }
  };
}

/** Prunes (or counts, with `dryRun`) what the retention settings let go at `now`. */
export function prune(store: Store, r: RetentionConfig, now: () => number, opts: { dryRun?: boolean } = {}): Promise<PruneCounts> {
  return store.prune(pruneCutoffs(r, now()), {
    ...(opts.dryRun ? { dryRun: true } : {}),
    ...(r.exportDir ? { exportCheckouts: checkoutExporter(r.exportDir, now) } : {}),
  });
}

/** One line saying what went (or would go). */
export function pruneSummary(c: PruneCounts, dryRun: boolean): string {
  const parts = [
    `${c.checkouts} ended checkouts`,
    `${c.events} delivered webhook events`,
    `${c.notifications} applied or ignored notifications`,
    `${c.idempotencyKeys} checkout idempotency keys`,
    `${c.replies} idempotent replies`,
  ];
  return `${dryRun ? 'would delete' : 'deleted'}: ${parts.join(', ')}`;
}

/**
 * The periodic prune of a running BFF: every interval, the instance that takes the lease
 * (held for one interval, so the others skip until it lapses) prunes. `runOnce` is what the
 * timer calls; it answers null when another instance holds the lease.
 */
export function startRetention(deps: { store: Store; retention: RetentionConfig; logger: Logger; now: () => number }) {
  const { store, retention, logger, now } = deps;
  const holder = randomUUID();
  const everyMs = retention.intervalMinutes * 60_000;
  let running: Promise<PruneCounts | null> | null = null;
  const runOnce = (): Promise<PruneCounts | null> =>
    (running ??= (async () => {
      try {
        if (!(await store.claimLease(RETENTION_LEASE, holder, now(), Math.max(everyMs, 60_000)))) return null;
        const counts = await prune(store, retention, now);
        logger.log('info', 'retention.pruned', { ...counts });
        return counts;
      } catch (err) {
        logger.log('error', 'retention.failed', { reason: err instanceof Error ? err.message : 'error' });
        return null;
      } finally {
        running = null;
      }
    })());
  const timer = everyMs > 0 ? setInterval(() => void runOnce(), everyMs) : null;
  timer?.unref();
  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

/** `bank-checkout-bff prune [--dry-run]`: one prune of the store DATABASE_URL names; the line to print. */
export async function pruneCommand(config: BffConfig, args: string[]): Promise<string> {
  const unknown = args.filter((a) => a !== '--dry-run');
  if (unknown.length) throw new Error(`prune takes only --dry-run (given: ${unknown.join(' ')})`);
  const dryRun = args.includes('--dry-run');
  const store = createStore(config.databaseUrl);
  try {
    await store.init();
    return pruneSummary(await prune(store, config.retention, Date.now, { dryRun }), dryRun);
  } finally {
    await store.close();
  }
}
