/**
 * The one HTTP path both clients share: headers, a timeout on every call, a cap on the body
 * read, JSON parsing, the provider's status code turned into a typed error, and the success
 * body validated. No retries here: whether a call may be repeated is the caller's decision.
 *
 * Where the provider's HTTP status codes are not specified, the body decides: a JSON body with
 * a `status` field is the provider's answer whatever the HTTP status; anything else is an
 * upstream fault. How a request leaves is send.ts; the errors a call ends with, errors.ts.
 */
import type { z } from 'zod';
import { ProviderError, UpstreamError, type UpstreamFault } from './errors.js';
import { fetchSend, isTimeout, nodeSend, onNode, type Send } from './send.js';

export { ProviderError, UpstreamError, InvalidRequestError, checkRequest, type UpstreamFault } from './errors.js';

export interface ClientOptions {
  /** Base address without the environment segment, e.g. `https://api.example/links`. */
  baseUrl: string;
  /** Environment segment: `san`/`pro` for payment links, `test`/production for native. */
  env: string;
  apiKey: string;
  apiToken: string;
  /**
   * The HTTP client. Default on Node: `node:http`/`node:https` with a keep-alive agent of the
   * client's own (see `nodeSend`); elsewhere the global `fetch`. Given, every call uses it.
   */
  fetch?: typeof fetch;
  /** Per-call timeout in milliseconds. Default 15000. */
  timeoutMs?: number;
  /**
   * With the default transport: how long a free connection is kept for the next call, in
   * milliseconds (default 4000; at most half the keep-alive timeout the server announces).
   */
  freeConnectionMs?: number;
  /** Largest response body read, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Header names carrying the key and the token. Default `X-Api-Key` and `Authorization`. */
  headerNames?: { apiKey: string; apiToken: string };
  /** Called after every call (for metrics and logs); never given bodies or secrets. */
  onCall?: (event: CallEvent) => void;
  /**
   * Called as each call starts (for tracing), with what it is: the headers it gives go with the
   * request (a `traceparent`; they never replace the key, the token or the content headers), and
   * its `end` is called with the call's event when the call ends, whatever way. Never given
   * bodies or secrets.
   */
  onStart?: (call: { service: CallEvent['service']; endpoint: string }) => CallTrace | undefined;
}

/** What `onStart` gives for one call: headers to send, and what to call when it ends. */
export interface CallTrace {
  headers?: Readonly<Record<string, string>>;
  end?(event: CallEvent): void;
}

export interface CallEvent {
  service: 'native' | 'links';
  endpoint: string;
  durationMs: number;
  /** `ok`, a provider code such as `B100`, or an upstream fault kind. */
  outcome: string;
  httpStatus?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface Transport {
  call<S extends z.ZodType>(spec: {
    endpoint: string;
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string | undefined>;
    body?: unknown;
    schema: S;
    okCodes: readonly string[];
    signal?: AbortSignal | undefined;
  }): Promise<z.output<S>>;
}

/** The call's own headers, and those of its trace that name no header of its own (in any case). */
function withTrace(own: Readonly<Record<string, string>>, trace: Readonly<Record<string, string>>): Record<string, string> {
  const taken = new Set(Object.keys(own).map((n) => n.toLowerCase()));
  const out: Record<string, string> = { ...own };
  for (const [name, value] of Object.entries(trace)) if (!taken.has(name.toLowerCase())) out[name] = value;
  return out;
}

export function createTransport(service: CallEvent['service'], opts: ClientOptions): Transport {
  // The sender is made on the first call (node:http is imported then); later calls use it directly.
  let sender: Send | null = null;
  let making: Promise<Send> | null = null;
  const send: Send = (url, init, maxBody) => {
    if (sender) return sender(url, init, maxBody);
    making ??= (!opts.fetch && onNode ? nodeSend(opts.freeConnectionMs) : Promise.resolve(fetchSend(opts.fetch ?? fetch))).then((s) => (sender = s));
    return making.then((s) => s(url, init, maxBody));
  };
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const names = opts.headerNames ?? { apiKey: 'X-Api-Key', apiToken: 'Authorization' };
  const base = `${opts.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(opts.env)}`;
  // The spec's three headers go on every request, GET included: one object for every call
  // (the senders copy it, never change it).
  const headers: Readonly<Record<string, string>> = Object.freeze({
    [names.apiKey]: opts.apiKey,
    [names.apiToken]: opts.apiToken,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  });
  /** The address of each endpoint called without a query, parsed once (neither sender changes it). */
  const plainUrls = new Map<string, URL>();
  const urlOf = (path: string, query: Record<string, string | undefined> | undefined) => {
    if (!query) {
      let url = plainUrls.get(path);
      if (!url) plainUrls.set(path, (url = new URL(base + path)));
      return url;
    }
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  };

  return {
    async call({ endpoint, method, path, query, body, schema, okCodes, signal }) {
      const traced = opts.onStart?.({ service, endpoint });
      const started = performance.now();
      let httpStatus: number | undefined;
      const report = (outcome: string) => {
        const event: CallEvent = { service, endpoint, durationMs: performance.now() - started, outcome, ...(httpStatus ? { httpStatus } : {}) };
        opts.onCall?.(event);
        traced?.end?.(event);
      };

      const url = urlOf(path, query);

      let text: string | null;
      try {
        if (signal?.aborted) throw signal.reason;
        const res = await send(
          url,
          {
            method,
            headers: traced?.headers ? withTrace(headers, traced.headers) : headers,
            body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
            signal,
            timeoutMs,
          },
          maxBody,
        );
        httpStatus = res.status;
        text = res.text;
      } catch (err) {
        const kind: UpstreamFault = signal?.aborted ? 'aborted' : isTimeout(err) ? 'timeout' : 'network';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      }
      if (text === null) {
        report('too-large');
        throw new UpstreamError('too-large', endpoint, httpStatus);
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        const kind = httpStatus >= 400 ? 'http' : 'body';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      }
      const status = json && typeof json === 'object' ? (json as Record<string, unknown>).status : undefined;
      if (typeof status !== 'string' && typeof status !== 'number') {
        const kind = httpStatus >= 400 ? 'http' : 'schema';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      }
      const code = String(status);
      if (!okCodes.includes(code)) {
        const record = json as Record<string, unknown>;
        const desc = record.description ?? record['descripción'];
        report(code);
        throw new ProviderError(code, typeof desc === 'string' ? desc : null, endpoint, httpStatus);
      }
      // The answer's own object (parsed above, held by no one else) with its status as text.
      (json as Record<string, unknown>).status = code;
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        report('schema');
        throw new UpstreamError('schema', endpoint, httpStatus);
      }
      report('ok');
      return parsed.data;
    },
  };
}
