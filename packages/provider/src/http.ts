/**
 * The one HTTP path both clients share: headers, a timeout on every call, a cap on the body
 * read, JSON parsing, the provider's status code turned into a typed error, and the success
 * body validated. No retries here: whether a call may be repeated is the caller's decision.
 *
 * Where the provider's HTTP status codes are not specified, the body decides: a JSON body with
 * a `status` field is the provider's answer whatever the HTTP status; anything else is an
 * upstream fault.
 */
import type { z } from 'zod';
import { codeName } from './codes.js';

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
  /** Largest response body read, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Header names carrying the key and the token. Default `X-Api-Key` and `Authorization`. */
  headerNames?: { apiKey: string; apiToken: string };
  /** Called after every call (for metrics and logs); never given bodies or secrets. */
  onCall?: (event: CallEvent) => void;
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

/** The provider answered with an error code in `status`. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly code: string,
    readonly description: string | null,
    readonly endpoint: string,
    readonly httpStatus: number,
  ) {
    super(`${endpoint}: provider answered ${code} (${codeName(code)})`);
  }
}

export type UpstreamFault = 'timeout' | 'network' | 'http' | 'body' | 'schema' | 'too-large' | 'aborted';

/** The provider could not be reached or answered something that is not a provider answer. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly kind: UpstreamFault,
    readonly endpoint: string,
    readonly httpStatus?: number,
  ) {
    super(`${endpoint}: upstream ${kind}${httpStatus ? ` (HTTP ${httpStatus})` : ''}`);
  }
}

/** The request given to a client method broke the spec's rules; nothing was sent. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
  constructor(
    readonly endpoint: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(`${endpoint}: invalid request: ${issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ')}`);
  }
}

export function checkRequest<S extends z.ZodType>(schema: S, endpoint: string, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new InvalidRequestError(
      endpoint,
      result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return result.data;
}

/** One request as the transport sends it: the status, and the body as text (null past the cap). */
type Send = (
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; signal: AbortSignal },
  maxBody: number,
) => Promise<{ status: number; text: string | null }>;

const decoder = new TextDecoder();

/** Sends through a `fetch` implementation (the global one, or one given for tests). */
function fetchSend(doFetch: typeof fetch): Send {
  return async (url, init, maxBody) => {
    const res = await doFetch(url, { ...init, redirect: 'error' });
    return { status: res.status, text: await readCapped(res, maxBody) };
  };
}

/**
 * Sends with `node:http`/`node:https` and a keep-alive agent per client: one connection pool to
 * the provider, reused across calls (no TCP or TLS handshake per call), and a fraction of the
 * CPU time of Node's `fetch` per call (no web streams, no Request/Response objects). A free
 * connection is closed before the server's announced keep-alive timeout (Node's agent reads
 * the `Keep-Alive: timeout=` hint), so a call rarely meets a connection the server is closing;
 * when one does, it fails as a network fault like any reset, and login, second login, transfer
 * and validate are still never sent twice. Redirects are not followed (a 3xx is not a provider
 * answer: its body decides, as for any other status).
 */
async function nodeSend(): Promise<Send> {
  const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
  const options = { keepAlive: true, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return (url, init, maxBody) =>
    new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const body = init.body === undefined ? undefined : Buffer.from(init.body);
      const headers = body ? { ...init.headers, 'Content-Length': String(body.byteLength) } : init.headers;
      const req = (secure ? https : http).request(url, { method: init.method, headers, agent: secure ? agents.https : agents.http, signal: init.signal }, (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBody) {
          res.destroy();
          return resolve({ status, text: null });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBody) {
            res.destroy();
            resolve({ status, text: null });
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, text: decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)) }));
        res.on('error', reject);
        // A body cut short (the connection closed before its end) is a network fault.
        res.on('close', () => {
          if (!res.complete) reject(new Error('response closed before its end'));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
}

const onNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

async function readCapped(res: Response, max: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return decoder.decode(all);
}

/**
 * Settles with `work`, or rejects as soon as `signal` aborts: the deadline holds even with a
 * fetch implementation (or a response body) that ignores the signal.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
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

export function createTransport(service: CallEvent['service'], opts: ClientOptions): Transport {
  let sender: Promise<Send> | null = null;
  // `node:http` ends a request, its answer's body included, as soon as the signal aborts; a
  // `fetch` (or its body) may not, so its calls are also raced against the signal.
  const ownsAbort = !opts.fetch && onNode;
  const send: Send = async (url, init, maxBody) => {
    sender ??= ownsAbort ? nodeSend() : Promise.resolve(fetchSend(opts.fetch ?? fetch));
    return (await sender)(url, init, maxBody);
  };
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const names = opts.headerNames ?? { apiKey: 'X-Api-Key', apiToken: 'Authorization' };
  const base = `${opts.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(opts.env)}`;

  return {
    async call({ endpoint, method, path, query, body, schema, okCodes, signal }) {
      const started = performance.now();
      let httpStatus: number | undefined;
      const report = (outcome: string) =>
        opts.onCall?.({ service, endpoint, durationMs: performance.now() - started, outcome, ...(httpStatus ? { httpStatus } : {}) });

      const url = new URL(base + path);
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
      // A timer of our own rather than AbortSignal.timeout: it is cleared when the call ends and,
      // while the call is pending, it keeps the process alive like the socket it waits on.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new DOMException('upstream timeout', 'TimeoutError')), timeoutMs);
      // The spec's three headers go on every request, GET included.
      const headers: Record<string, string> = {
        [names.apiKey]: opts.apiKey,
        [names.apiToken]: opts.apiToken,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      };
      const stop = signal ? AbortSignal.any([timeout.signal, signal]) : timeout.signal;

      let text: string | null;
      try {
        if (stop.aborted) throw stop.reason;
        const answer = send(url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}), signal: stop }, maxBody);
        const res = await (ownsAbort ? answer : untilAborted(answer, stop));
        httpStatus = res.status;
        text = res.text;
      } catch {
        const kind: UpstreamFault = timeout.signal.aborted ? 'timeout' : signal?.aborted ? 'aborted' : 'network';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      } finally {
        clearTimeout(timer);
      }
      if (text === null) {
        report('too-large');
        throw new UpstreamError('too-large', endpoint, httpStatus);
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        const kind = httpStatus !== undefined && httpStatus >= 400 ? 'http' : 'body';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      }
      const status = json && typeof json === 'object' ? (json as Record<string, unknown>).status : undefined;
      if (typeof status !== 'string' && typeof status !== 'number') {
        const kind = httpStatus !== undefined && httpStatus >= 400 ? 'http' : 'schema';
        report(kind);
        throw new UpstreamError(kind, endpoint, httpStatus);
      }
      const code = String(status);
      if (!okCodes.includes(code)) {
        const record = json as Record<string, unknown>;
        const desc = record.description ?? record['descripción'];
        report(code);
        throw new ProviderError(code, typeof desc === 'string' ? desc : null, endpoint, httpStatus ?? 0);
      }
      const parsed = schema.safeParse({ ...(json as object), status: code });
      if (!parsed.success) {
        report('schema');
        throw new UpstreamError('schema', endpoint, httpStatus);
      }
      report('ok');
      return parsed.data;
    },
  };
}
