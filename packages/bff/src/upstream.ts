/**
 * The BFF's side of the provider: the three clients (native, payment links, earlier-variant
 * links), retries for read-only calls only, the cached bank lists, and how upstream failures
 * become API errors.
 *
 * Login, second-login, transfer init and validate go through `once`: never repeated, since each
 * may burn one of the payer's limited attempts at the bank.
 */
import {
  createLinksClient,
  createNativeClient,
  ProviderError,
  UpstreamError,
  InvalidRequestError,
  type BankGroup,
  type BankType,
  type CallEvent,
  type LinkBank,
} from '@bank-checkout/provider';
import type { BffConfig } from './config.js';
import { ApiError, errors } from './errors.js';
import type { Logger } from './log.js';
import type { Telemetry } from './telemetry.js';

export interface UpstreamDeps {
  fetch?: typeof fetch;
  logger: Logger;
  now: () => number;
  /** Delay between read-only retries; tests shorten it. */
  retryDelayMs?: number;
  /** A span for each call, and the trace's headers sent with it (telemetry.ts). */
  telemetry?: Pick<Telemetry, 'providerCall'>;
}

const READ_ONLY_TRIES = 3;

export function createUpstream(config: BffConfig, deps: UpstreamDeps) {
  const calls = new Map<string, number>();
  const onCall = (e: CallEvent) => {
    calls.set(`${e.service} ${e.endpoint}`, (calls.get(`${e.service} ${e.endpoint}`) ?? 0) + 1);
    deps.logger.log(e.outcome === 'ok' ? 'debug' : 'warn', 'upstream.call', {
      service: e.service,
      endpoint: e.endpoint,
      outcome: e.outcome,
      durationMs: Math.round(e.durationMs),
      ...(e.httpStatus ? { httpStatus: e.httpStatus } : {}),
    });
    if (e.httpStatus === 401 || e.httpStatus === 403) {
      deps.logger.log('error', 'upstream.credentials', { service: e.service, endpoint: e.endpoint, httpStatus: e.httpStatus, fix: CREDENTIALS_HINT });
    }
  };
  const common = {
    timeoutMs: config.provider.timeoutMs,
    onCall,
    ...(deps.telemetry ? { onStart: deps.telemetry.providerCall } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  };
  const native = createNativeClient({
    baseUrl: config.provider.nativeUrl,
    env: config.provider.nativeEnv,
    apiKey: config.provider.apiKey,
    apiToken: config.provider.apiToken,
    ...common,
  });
  const links = createLinksClient({
    baseUrl: config.provider.linksUrl,
    env: config.provider.env,
    apiKey: config.provider.apiKey,
    apiToken: config.provider.apiToken,
    dateRules: { now: deps.now },
    ...common,
  });
  // The earlier signer variant's own client; null when it is off (going live without its keys).
  const legacy = config.provider.legacy;
  const legacyLinks = legacy
    ? createLinksClient({
        baseUrl: config.provider.linksUrl,
        env: config.provider.env,
        apiKey: legacy.apiKey,
        apiToken: legacy.apiToken,
        dateRules: { now: deps.now },
        ...common,
      })
    : null;

  const retryDelay = deps.retryDelayMs ?? 100;
  /** The longest a read-only call can take: every try to its timeout, and the longest waits between. */
  const readOnlyMaxMs = READ_ONLY_TRIES * config.provider.timeoutMs + retryDelay * 1.5 * ((3 ** (READ_ONLY_TRIES - 1) - 1) / 2);

  /** Read-only calls: up to 3 tries on upstream faults (never on a provider answer). */
  async function readOnly<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof UpstreamError) || attempt >= READ_ONLY_TRIES) throw err;
        await new Promise((r) => setTimeout(r, retryDelay * 3 ** (attempt - 1) * (0.5 + Math.random())));
      }
    }
  }

  function cached<T>(ttlMs: number, load: () => Promise<T>) {
    let value: { data: T; at: number } | null = null;
    let inflight: Promise<T> | null = null;
    const read = async (): Promise<T> => {
      if (value && deps.now() - value.at < ttlMs) return value.data;
      inflight ??= readOnly(load)
        .then((data) => {
          value = { data, at: deps.now() };
          return data;
        })
        .finally(() => {
          inflight = null;
        });
      return inflight;
    };
    /** The value last read, however old; undefined before the first read. */
    return Object.assign(read, { last: () => value?.data });
  }

  const nativeBanks = cached<BankGroup[]>(config.banksCacheTtlMs, async () => (await native.banksList()).listBanks ?? []);
  const periodicBanks = cached<LinkBank[]>(config.banksCacheTtlMs, async () => (await links.banks({ enabledPeriodicPayment: '1' })).data ?? []);
  /** Every bank of the payment-link service (whose codes name the bank of an account paid from). */
  const linkBanks = cached<LinkBank[]>(config.banksCacheTtlMs, async () => (await links.banks()).data ?? []);

  /** Banks by id, for each bank list read (a new list, a new index). */
  const bankIndex = new WeakMap<BankGroup[], Map<string, BankType>>();
  /** A bank's description from the native bank list last read (however old), without a call; undefined if it is not there. */
  function cachedNativeBank(bankId: string): BankType | undefined {
    const groups = nativeBanks.last();
    if (!groups) return undefined;
    let index = bankIndex.get(groups);
    if (!index) bankIndex.set(groups, (index = new Map(groups.flatMap((g) => g.types.map((t) => [t.bankId, t] as const)))));
    return index.get(bankId);
  }

  return { native, links, legacyLinks, readOnly, readOnlyMaxMs, nativeBanks, cachedNativeBank, periodicBanks, linkBanks, calls };
}

export type Upstream = ReturnType<typeof createUpstream>;

/** What the operator must check when the provider refuses the BFF's own credentials. */
export const CREDENTIALS_HINT =
  'the provider refused the API credentials: check PROVIDER_API_KEY and PROVIDER_API_TOKEN (PROVIDER_LEGACY_API_KEY and PROVIDER_LEGACY_API_TOKEN for the earlier variant) and PROVIDER_ENV';

/** Longest provider description passed on to the merchant. */
const MAX_PROVIDER_DETAIL = 300;

/**
 * Maps a failed provider call to an API error: timeouts 504, other upstream faults 502,
 * provider error codes 502 (with the code, never the provider's body), invalid requests 422.
 * With `forMerchant`, an E301 also carries the provider's description (one line, cut to 300
 * characters) as the issue `providerDescription`: it names the field the merchant must fix.
 * The checkout API never passes it on to a browser.
 */
export function toApiError(err: unknown, opts: { forMerchant?: boolean } = {}): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof UpstreamError) {
    return err.kind === 'timeout' ? errors.upstreamTimeout() : errors.upstream(`The payment provider could not be used (${err.kind}).`);
  }
  if (err instanceof ProviderError && (err.httpStatus === 401 || err.httpStatus === 403)) {
    // The BFF's own key or token is wrong: the merchant (the operator) is told what to fix; a
    // payer only learns that the provider could not be used.
    return opts.forMerchant
      ? new ApiError(
          502,
          'provider_credentials',
          `The payment provider refused the BFF's credentials (HTTP ${err.httpStatus}): ${CREDENTIALS_HINT.replace(/^the provider refused the API credentials: /, '')}.`,
        )
      : errors.upstream('The payment provider could not be used.');
  }
  if (err instanceof ProviderError) {
    // E301: the provider found the parameters wrong (e.g. an account not validated in its
    // dashboard), something the merchant can fix; anything else is the provider's failure.
    const invalid = err.code === 'E301';
    return new ApiError(
      invalid ? 422 : 502,
      invalid ? 'provider_rejected' : 'provider_error',
      `The payment provider ${invalid ? 'rejected the parameters' : 'answered with an error'} (${err.code}).`,
      [
        { path: 'providerCode', message: err.code },
        ...(invalid && opts.forMerchant && err.description
          ? [{ path: 'providerDescription', message: err.description.replace(/\s+/g, ' ').trim().slice(0, MAX_PROVIDER_DETAIL) }]
          : []),
      ],
    );
  }
  if (err instanceof InvalidRequestError) {
    return errors.validation(err.issues);
  }
  throw err;
}
