/**
 * The BFF on Node's HTTP server, as `bank-checkout-bff` runs it: header and request timeouts,
 * so a client that sends slowly cannot hold a connection, and a cap on the connections one
 * address may hold open, so a few addresses cannot use up the process's sockets (a connection
 * over the cap is answered 503 with `Retry-After` and closed). The shop's server is no browser:
 * its connections (their requests carry the merchant secret) count apart, under a cap of their own.
 *
 * A stop drains it (`drain`): no new connection is accepted, idle kept-alive connections close,
 * a request that arrives on an open one is answered 503 `unavailable` with `Retry-After`, and the
 * requests under way (calls with the bank among them) finish, their answers carrying
 * `Connection: close`, for up to a grace period; what is still open then is cut.
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { ErrorBody } from '@bank-checkout/contract/schemas';
import type { BffConfig } from './config.js';
import { bearerCheck } from './guards.js';

export interface ServeOptions {
  port: number;
  hostname: string;
  /** Milliseconds to receive a request's headers (default 10 000). */
  headersTimeoutMs?: number;
  /** Milliseconds to receive a whole request (default 30 000). */
  requestTimeoutMs?: number;
  /** Idle keep-alive connections close after this (default 5 000). */
  keepAliveTimeoutMs?: number;
  /** Open connections per client address; 0 for no cap (behind a proxy, every client is the proxy). */
  maxConnectionsPerAddress?: number;
  /**
   * The shop's server, told apart from browsers: a connection whose requests carry
   * `Authorization: Bearer <secret>` (compared in constant time) does not count against
   * `maxConnectionsPerAddress`; one address may hold `maxConnectionsPerAddress` such connections
   * more (default 256). A connection over the browsers' cap is given PROVE_WITHIN_MS to send a
   * request with the secret, else it is answered 503 and closed.
   */
  merchant?: { secret: string; maxConnectionsPerAddress?: number };
  /** Told of each 503 the server gives itself (the app's own are counted by the app). */
  onUnavailable?: (cause: 'connection_cap' | 'stopping') => void;
}

/** The options `bank-checkout-bff` serves with: the address, and the caps of its configuration. */
export function serveOptionsOf(config: BffConfig): ServeOptions {
  return {
    port: config.port,
    hostname: config.host,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    merchant: { secret: config.merchantSecret, maxConnectionsPerAddress: config.maxMerchantConnectionsPerAddress },
  };
}

/**
 * What a stop's grace adds to the provider timeout: the answer's writes (a store slow to answer
 * included), and the request's own work before and after the call.
 */
export const STOP_MARGIN_MS = 5_000;
/** How long closing the dispatcher, the sweeper and the store may take after the grace. */
export const CLOSE_MS = 5_000;
/** How long the requests under way are given to finish at a stop: a call with the bank may take the whole provider timeout. */
export const stopGraceMs = (config: Pick<BffConfig, 'provider'>) => config.provider.timeoutMs + STOP_MARGIN_MS;
/**
 * The longest a stop takes, SIGTERM to exit: the grace, then the close. A supervisor must wait
 * longer than this before SIGKILL (compose's `stop_grace_period`, systemd's `TimeoutStopSec`…).
 */
export const stopBoundMs = (config: Pick<BffConfig, 'provider'>) => stopGraceMs(config) + CLOSE_MS;

/** How long a connection over the browsers' cap has to show the merchant secret before it is refused. */
export const PROVE_WITHIN_MS = 1_000;
/** Connections of the shop's server one address may hold beyond the browsers' cap, by default. */
export const MERCHANT_CONNECTIONS_PER_ADDRESS = 256;

export interface ServedBff {
  server: Server;
  /** Resolves with the address once listening. */
  listening: Promise<AddressInfo>;
  /** Connections refused because their address held too many. */
  refused(): number;
  /** Requests under way: taken by the app, their answer not yet sent. */
  inFlight(): number;
  /**
   * Stops taking requests and lets those under way finish, for `graceMs` at most; resolves once
   * none is left and every connection is closed, with the number of requests cut at the grace.
   */
  drain(graceMs: number): Promise<{ cut: number }>;
}

/** The answer to a request that arrives on an open connection while the server drains. */
const STOPPING_BODY = JSON.stringify({
  error: { code: 'unavailable', message: 'This instance is stopping; send the request again.', requestId: 'unknown' },
} satisfies ErrorBody);

/**
 * The answer to a connection over its address's cap: a 503 with `Retry-After` in the API's
 * error shape, written at once and the connection closed. A reset instead would leave a client
 * guessing (Node's fetch was seen holding such a request until its own timeout); this one is
 * retried a second later by any client that honours `Retry-After`, the merchant client included.
 */
const OVER_CAP_BODY = JSON.stringify({
  error: { code: 'rate_limited', message: 'Too many connections from this address at once; try again in a moment.', requestId: 'unknown' },
} satisfies ErrorBody);
const OVER_CAP_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Retry-After': '1',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};
const OVER_CAP_ANSWER = [
  'HTTP/1.1 503 Service Unavailable',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(OVER_CAP_BODY)}`,
  'Retry-After: 1',
  'Cache-Control: no-store',
  'X-Content-Type-Options: nosniff',
  'Connection: close',
  '',
  OVER_CAP_BODY,
].join('\r\n');
/** How long a refused connection may stay while its answer leaves and the client closes its side. */
const REFUSED_LINGER_MS = 1_000;

/** Connections refused over their address's cap: Node's HTTP parser is on them all the same. */
const refusedSockets = new WeakSet<Socket>();

function refuse(socket: Socket): void {
  refusedSockets.add(socket);
  // What the client sent is read and dropped, so that closing sends the answer and a FIN, not a reset.
  socket.on('error', () => {});
  socket.resume();
  socket.end(OVER_CAP_ANSWER);
  // A client that has not closed by then (it may not even read) is reset, which it cannot miss.
  setTimeout(() => socket.destroyed || socket.resetAndDestroy(), REFUSED_LINGER_MS).unref();
}

/** What the cap knows of a connection: proven the shop's, or on probation (over the browsers' cap, not yet proven). */
interface Standing {
  merchant: boolean;
  probation: ReturnType<typeof setTimeout> | null;
}

export function serveBff(fetch: (req: Request, env: unknown) => Response | Promise<Response>, opts: ServeOptions): ServedBff {
  let resolveListening!: (a: AddressInfo) => void;
  const listening = new Promise<AddressInfo>((r) => (resolveListening = r));
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const serverOptions = {
    headersTimeout,
    requestTimeout: opts.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 5_000,
    // How often Node looks for connections past those timeouts (its default is 30 s).
    connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(headersTimeout / 2))),
  };
  // Node's own listener gives every connection its HTTP parser before the cap below sees it, so
  // a refused connection's request would still reach the BFF (a checkout created, a step taken)
  // while its client was told 503 and to try again. Its requests are answered by no one.
  /** Answers under way: each closes its connection once sent when a drain has begun. */
  const underWay = new Set<ServerResponse>();
  let draining = false;
  let settled: (() => void) | null = null;
  const guarded = (req: Request, env: unknown) => {
    const bindings = env as { incoming?: { socket?: Socket }; outgoing?: ServerResponse } | undefined;
    const socket = bindings?.incoming?.socket;
    if (socket && refusedSockets.has(socket)) return new Response(null, { status: 503 });
    const outgoing = bindings?.outgoing;
    const standing = socket && standings.get(socket);
    if (standing && !standing.merchant) {
      if (isMerchant?.(req)) prove(socket, standing);
      else if (standing.probation) {
        // Over the browsers' cap and no shop: refused as at the connection, and nothing of it runs.
        refused++;
        clearTimeout(standing.probation);
        standing.probation = null;
        refusedSockets.add(socket);
        opts.onUnavailable?.('connection_cap');
        if (outgoing) outgoing.shouldKeepAlive = false;
        return new Response(OVER_CAP_BODY, { status: 503, headers: OVER_CAP_HEADERS });
      }
    }
    if (draining) {
      // Taken after the stop began (on a connection kept alive): not run, and the client told to go elsewhere.
      opts.onUnavailable?.('stopping');
      if (outgoing) outgoing.shouldKeepAlive = false;
      return new Response(STOPPING_BODY, {
        status: 503,
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
      });
    }
    if (outgoing) {
      underWay.add(outgoing);
      outgoing.once('close', () => {
        underWay.delete(outgoing);
        if (draining && underWay.size === 0) settled?.();
      });
    }
    return fetch(req, env);
  };
  const server = serve({ fetch: guarded, port: opts.port, hostname: opts.hostname, serverOptions }, (info) => resolveListening(info)) as Server;
  const cap = opts.maxConnectionsPerAddress ?? 64;
  const merchantCap = opts.merchant ? (opts.merchant.maxConnectionsPerAddress ?? MERCHANT_CONNECTIONS_PER_ADDRESS) : 0;
  const isMerchant = opts.merchant && merchantCap > 0 ? bearerCheck(opts.merchant.secret) : null;
  /** Open connections by address: all of them, and those of the shop's server. */
  const open = new Map<string, { all: number; merchant: number }>();
  const standings = new WeakMap<Socket, Standing>();
  let refused = 0;
  /** A connection that sent the merchant secret: the shop's from now on, out of the browsers' count. */
  const prove = (socket: Socket, standing: Standing) => {
    const counts = open.get(socket.remoteAddress ?? '');
    if (standing.probation) clearTimeout(standing.probation);
    standing.probation = null;
    // Over the shop's own cap: left on the browsers' side, as it was.
    if (!counts || counts.merchant >= merchantCap) return;
    standing.merchant = true;
    counts.merchant++;
  };
  if (cap > 0) {
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? '';
      const counts = open.get(address) ?? { all: 0, merchant: 0 };
      const browsers = counts.all - counts.merchant;
      // Past the browsers' cap, a connection may still be the shop's server (its requests carry the
      // merchant secret): it has a moment to show it, within the shop's own cap.
      if (browsers >= cap && (!isMerchant || counts.all >= cap + merchantCap)) {
        refused++;
        opts.onUnavailable?.('connection_cap');
        refuse(socket);
        return;
      }
      const standing: Standing = { merchant: false, probation: null };
      if (browsers >= cap) {
        standing.probation = setTimeout(() => {
          standing.probation = null;
          if (standing.merchant || socket.destroyed) return;
          refused++;
          opts.onUnavailable?.('connection_cap');
          refuse(socket);
        }, PROVE_WITHIN_MS);
        standing.probation.unref();
      }
      if (isMerchant) standings.set(socket, standing);
      counts.all++;
      open.set(address, counts);
      socket.once('close', () => {
        if (standing.probation) clearTimeout(standing.probation);
        counts.all--;
        if (standing.merchant) counts.merchant--;
        if (counts.all <= 0) open.delete(address);
      });
    });
  }
  const drain = (graceMs: number): Promise<{ cut: number }> => {
    draining = true;
    // Each answer under way that has not gone yet says `Connection: close`, and its connection closes once it is sent.
    for (const res of underWay) if (!res.headersSent) res.shouldKeepAlive = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Node closes the idle connections as it stops listening; those busy now close after their answer.
    server.closeIdleConnections();
    const idle = new Promise<void>((resolve) => {
      settled = resolve;
      if (underWay.size === 0) resolve();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<'grace'>((resolve) => {
      timer = setTimeout(() => resolve('grace'), graceMs);
    });
    return Promise.race([idle, grace]).then(async (outcome) => {
      clearTimeout(timer);
      const cut = outcome === 'grace' ? underWay.size : 0;
      // What is left (requests past the grace, connections opened and not yet used) is cut.
      server.closeAllConnections();
      await closed;
      return { cut };
    });
  };

  return { server, listening, refused: () => refused, inFlight: () => underWay.size, drain };
}
