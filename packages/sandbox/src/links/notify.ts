/**
 * Result notifications: a form POST (`application/x-www-form-urlencoded`) of `dataReturn`
 * (Base64 JSON) and `signatureDataReturn` to the order's `urlNotif`.
 *
 * Delivery (the spec leaves the retry policy and the expected answer open):
 * - Any 2xx answer is a delivery; anything else (another status, a network error, no answer
 *   within the timeout) is retried after each delay of `retryDelaysMs` (default 2 s, 10 s,
 *   60 s: four attempts in all), then given up.
 * - A local `urlNotif` (loopback, private network) fails at once and is not retried, unless
 *   the simulator allows local notifications (`allowLocalNotif`).
 * - The first attempt is made before the gateway shows its result page, so a receiver has the
 *   notification before the payer's browser can post the same data to `urlOk`/`urlError`.
 *   Retries run on timers that never keep the process alive.
 * - Every attempt is logged (most recent `MAX_LOG` kept) for `GET /__sandbox/notifications`.
 */
import { encodeDataReturn, isLocalUrl, signNotification, type DataReturn } from '@bank-checkout/provider';
import type { LinkEnv } from './store.js';

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000, 60_000];
export const DEFAULT_NOTIFY_TIMEOUT_MS = 5_000;
const MAX_LOG = 1_000;

export interface NotificationAttempt {
  id: number;
  env: LinkEnv;
  idDebt: string;
  transactionId: string;
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** HTTP status answered, or null when none came. */
  status: number | null;
  ok: boolean;
  /** Why the attempt failed, when it did. */
  error?: string;
  /** True when another attempt is scheduled. */
  retrying: boolean;
  at: number;
  dataReturn: string;
  signatureDataReturn: string;
}

export interface NotifierOptions {
  fetch: typeof fetch;
  apiKey: string;
  allowLocal: boolean;
  now: () => number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

export interface SignedResult {
  dataReturn: string;
  signatureDataReturn: string;
}

export function createNotifier(opts: NotifierOptions) {
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
  const log: NotificationAttempt[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<Promise<void>>();
  let nextId = 1;

  /** `dataReturn` encoded and signed with the API key, as sent to urlNotif, urlOk and urlError. */
  async function sign(data: DataReturn): Promise<SignedResult> {
    const dataReturn = encodeDataReturn(data);
    return { dataReturn, signatureDataReturn: await signNotification(dataReturn, opts.apiKey) };
  }

  /** One POST; resolves with the HTTP status, or the reason there is none. */
  async function post(url: string, body: string): Promise<{ status: number | null; error?: string }> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const res = await Promise.race([
        opts.fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
          signal: controller.signal,
          redirect: 'manual',
        }),
        timeout,
      ]);
      // The receiver's answer is not read beyond its status.
      void res.body?.cancel().catch(() => {});
      return { status: res.status };
    } catch (err) {
      return { status: null, error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  function record(entry: Omit<NotificationAttempt, 'id' | 'at'>) {
    log.push({ id: nextId++, at: opts.now(), ...entry });
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
  }

  async function attempt(target: { env: LinkEnv; idDebt: string; url: string }, signed: SignedResult, transactionId: string, n: number): Promise<void> {
    const base = { ...target, transactionId, attempt: n, ...signed };
    if (!opts.allowLocal && isLocalUrl(target.url)) {
      record({ ...base, status: null, ok: false, retrying: false, error: 'urlNotif is a local address: notifications to local addresses fail' });
      return;
    }
    const body = new URLSearchParams({ dataReturn: signed.dataReturn, signatureDataReturn: signed.signatureDataReturn }).toString();
    const result = await post(target.url, body);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const delay = delays[n - 1];
    const retrying = !ok && delay !== undefined;
    record({
      ...base,
      status: result.status,
      ok,
      retrying,
      ...(ok ? {} : { error: result.error ?? `HTTP ${result.status}` }),
    });
    if (!retrying) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void track(attempt(target, signed, transactionId, n + 1));
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  function track(p: Promise<void>): Promise<void> {
    inFlight.add(p);
    return p.finally(() => inFlight.delete(p));
  }

  return {
    sign,
    /**
     * Notifies `url` of a result; resolves once the first attempt is over (retries, if any,
     * continue in the background).
     */
    deliver(target: { env: LinkEnv; idDebt: string; url: string }, signed: SignedResult, transactionId: string): Promise<void> {
      return track(attempt(target, signed, transactionId, 1));
    },
    /** Every attempt so far, oldest first. */
    log: (): NotificationAttempt[] => log.map((e) => ({ ...e })),
    /** Resolves when no attempt is running or scheduled. */
    async idle(): Promise<void> {
      while (inFlight.size > 0 || timers.size > 0) {
        if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        else await new Promise((r) => setTimeout(r, 1));
      }
    },
    /** Cancels every scheduled retry. */
    stop(): void {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
