/**
 * How a request leaves: through `node:http`/`node:https` with a keep-alive agent on Node, or
 * through a `fetch` implementation elsewhere (and in tests); the body read stops at a cap, and
 * a deadline holds even for a sender that ignores its signal.
 */
import type { Socket } from 'node:net';

/**
 * One request as the transport sends it: the status, and the body as text (null past the cap).
 * The request ends by `timeoutMs` (rejecting with a `TimeoutError`, body included) or as soon
 * as the caller's `signal` aborts (rejecting with its reason); the transport sends nothing for a
 * signal that has already aborted.
 */
export type Send = (
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Readonly<Record<string, string>>; body?: string | undefined; signal?: AbortSignal | undefined; timeoutMs: number },
  maxBody: number,
) => Promise<{ status: number; text: string | null }>;

/** What a call that ran out of time rejects with. */
export const timeoutError = () => new DOMException('upstream timeout', 'TimeoutError');
export const isTimeout = (err: unknown) => err instanceof DOMException && err.name === 'TimeoutError';

const decoder = new TextDecoder();

/**
 * A call's deadline: once its timer fires, the call is given two more turns of the event loop's
 * I/O before `onLate` calls it late. After a pause of the whole process (a VM paused, a long
 * collection) the timer and an answer that came meanwhile are both ready when it resumes; timers
 * run before the loop reads its sockets, so without those turns an answer already on its socket
 * would be thrown away as a timeout, and a known answer become a doubt.
 */
export function deadline(ms: number, onLate: () => void): { clear(): void } {
  let turn: ReturnType<typeof setImmediate> | undefined;
  const timer = setTimeout(() => {
    turn = setImmediate(() => {
      turn = setImmediate(onLate);
    });
  }, ms);
  return {
    clear() {
      clearTimeout(timer);
      if (turn) clearImmediate(turn);
    },
  };
}

/**
 * How long a free connection to the provider waits for the next call: under the idle timeouts
 * of common servers (Node's 5 s, most proxies' 60 s or more), and at most half of the one the
 * server announces (retiringAgent).
 */
export const FREE_CONNECTION_MS = 4_000;

/** Sends through a `fetch` implementation (the global one, or one given for tests). */
export function fetchSend(doFetch: typeof fetch): Send {
  return async (url, { timeoutMs, signal, ...init }, maxBody) => {
    // A timer of our own rather than AbortSignal.timeout: it is cleared when the call ends and,
    // while the call is pending, it keeps the process alive like the socket it waits on.
    const timeout = new AbortController();
    const timer = deadline(timeoutMs, () => timeout.abort(timeoutError()));
    const stop = signal ? AbortSignal.any([timeout.signal, signal]) : timeout.signal;
    try {
      // A fetch (or its body) may ignore the signal: the call is also raced against it.
      return await untilAborted(
        doFetch(url, { ...init, signal: stop, redirect: 'error' }).then(async (res) => ({ status: res.status, text: await readCapped(res, maxBody) })),
        stop,
      );
    } finally {
      timer.clear();
    }
  };
}

/**
 * Sends with `node:http`/`node:https` and a keep-alive agent per client: one connection pool to
 * the provider, reused across calls (no TCP or TLS handshake per call), and a fraction of the
 * CPU time of Node's `fetch` per call (no web streams, no Request/Response objects). A free
 * connection is retired well before the server would close it (retiringAgent): a call does not
 * meet a connection the server is closing, which would fail as a network fault (login, second
 * login, transfer and validate are never sent twice, so such a fault would end the payer's
 * step). Redirects are not followed (a 3xx is not a provider answer: its body decides, as for
 * any other status).
 */
export async function nodeSend(freeMs = FREE_CONNECTION_MS): Promise<Send> {
  const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
  const agents = { http: retiringAgent(http.Agent, freeMs), https: retiringAgent(https.Agent, freeMs) };
  return (url, init, maxBody) =>
    new Promise((done, fail) => {
      // The deadline is a timer of the call's own, not an AbortSignal (whose listeners cost every
      // call); it is cleared when the call settles, and ends the request, its body included.
      const timer = deadline(init.timeoutMs, () => {
        fail(timeoutError());
        req.destroy();
      });
      const resolve = (v: { status: number; text: string | null }) => {
        timer.clear();
        done(v);
      };
      const reject = (err: unknown) => {
        timer.clear();
        fail(err instanceof Error ? err : new Error(String(err)));
      };
      const secure = url.protocol === 'https:';
      const pool = secure ? agents.https : agents.http;
      // The server answers after this: its keep-alive timer starts later still (see retiringAgent).
      const sentAt = performance.now();
      // A free connection past its age is closed now, before the agent could hand it to this call.
      pool.retire();
      const body = init.body === undefined ? undefined : Buffer.from(init.body);
      // The headers as one flat list of names and values, Host and Content-Length included:
      // node:http writes such a list as it is, where an object costs a setHeader per header.
      const headers = ['Host', url.host];
      for (const name in init.headers) headers.push(name, init.headers[name]!);
      if (body) headers.push('Content-Length', String(body.byteLength));
      const req = (secure ? https : http).request(
        url,
        { method: init.method, headers, agent: pool.agent, ...(init.signal ? { signal: init.signal } : {}) },
        (res) => {
          const hint = res.headers['keep-alive'];
          pool.heard(res.socket, typeof hint === 'string' ? hint : undefined, sentAt);
          const status = res.statusCode ?? 0;
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBody) {
            res.destroy();
            resolve({ status, text: null });
            return;
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
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** Since when a free connection counts as idle (its last call's start), and the age at which it retires. */
interface Idle {
  since: number;
  limit: number;
}

/**
 * A keep-alive agent whose free connections retire by their age. A free connection is kept
 * `freeMs` at most, and half the server's announced keep-alive timeout (`Keep-Alive: timeout=`)
 * when that is sooner (Node's 5 s gives 2.5 s), its age counted from the start of its last call:
 * the server's own timer starts when it has answered, later than that, however late a busy event
 * loop here sees the answer. Its idle timer closes it then; but a timer runs late when the event
 * loop is busy (a loaded instance), and a connection whose timer had not run was handed to a call
 * after the server had closed it (measured: 0.2–4.5 % of calls failed with ECONNRESET, every one
 * on a reused connection, with the loop busy most of the time). So before each call the
 * connections past their age are closed and taken out of the pool (`retire`), whatever their
 * timers did.
 */
function retiringAgent<A extends typeof import('node:http').Agent>(Base: A, freeMs: number) {
  const idle = new WeakMap<Socket, Idle>();
  /** What each connection's last answer said: since when it counts as idle, and its age limit. */
  const heard = new WeakMap<Socket, Idle>();
  /** Node's own agent, whose answer says whether a connection may be kept (its type says void). */
  const nodeAgent: { keepSocketAlive(this: unknown, socket: Socket): unknown } = (Base as typeof import('node:http').Agent).prototype;
  class Retiring extends (Base as typeof import('node:http').Agent) {
    override keepSocketAlive(socket: Socket): boolean {
      const keep = nodeAgent.keepSocketAlive.call(this, socket) !== false;
      const last = heard.get(socket) ?? { since: performance.now(), limit: freeMs };
      if (socket.timeout !== last.limit) socket.setTimeout(last.limit);
      idle.set(socket, last);
      return keep && last.limit > 0 && performance.now() - last.since < last.limit;
    }
  }
  // `timeout` is also each connection's idle timeout while a call runs; it only emits there
  // (the call's own deadline aborts it).
  const agent = new Retiring({ keepAlive: true, scheduling: 'lifo', timeout: freeMs });
  return {
    agent,
    /** Notes an answer on `socket`: the server's keep-alive hint, and when its call started. */
    heard(socket: Socket, hint: string | undefined, sentAt: number): void {
      const seconds = hint ? /timeout=(\d+)/.exec(hint)?.[1] : undefined;
      heard.set(socket, { since: sentAt, limit: seconds === undefined ? freeMs : Math.min(freeMs, Number(seconds) * 500) });
    },
    /**
     * Closes the free connections past their age and takes them out of the pool at once (as
     * Node's documented `agentRemove` does), so the agent cannot hand one to the call about to
     * be made.
     */
    retire(): void {
      const now = performance.now();
      for (const free of Object.values(agent.freeSockets)) {
        for (const socket of [...(free ?? [])]) {
          const i = idle.get(socket);
          if (i && now - i.since < i.limit) continue;
          socket.destroy();
          socket.emit('agentRemove');
        }
      }
    },
  };
}

export const onNode = typeof process !== 'undefined' && typeof (process.versions as Partial<NodeJS.ProcessVersions> | undefined)?.node === 'string';

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
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
