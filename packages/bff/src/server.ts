/**
 * The BFF on Node's HTTP server, as `bank-checkout-bff` runs it: header and request timeouts,
 * so a client that sends slowly cannot hold a connection, and a cap on the connections one
 * address may hold open, so a few addresses cannot use up the process's sockets (a connection
 * over the cap is answered 503 with `Retry-After` and closed).
 */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { ErrorBody } from '@bank-checkout/contract/schemas';

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
}

export interface ServedBff {
  server: Server;
  /** Resolves with the address once listening. */
  listening: Promise<AddressInfo>;
  /** Connections refused because their address held too many. */
  refused(): number;
}

/**
 * The answer to a connection over its address's cap: a 503 with `Retry-After` in the API's
 * error shape, written at once and the connection closed. A reset instead would leave a client
 * guessing (Node's fetch was seen holding such a request until its own timeout); this one is
 * retried a second later by any client that honours `Retry-After`, the merchant client included.
 */
const OVER_CAP_BODY = JSON.stringify({
  error: { code: 'rate_limited', message: 'Too many connections from this address at once; try again in a moment.', requestId: 'unknown' },
} satisfies ErrorBody);
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
  const guarded = (req: Request, env: unknown) => {
    const socket = (env as { incoming?: { socket?: Socket } } | undefined)?.incoming?.socket;
    return socket && refusedSockets.has(socket) ? new Response(null, { status: 503 }) : fetch(req, env);
  };
  const server = serve({ fetch: guarded, port: opts.port, hostname: opts.hostname, serverOptions }, (info) => resolveListening(info)) as Server;
  const cap = opts.maxConnectionsPerAddress ?? 64;
  const open = new Map<string, number>();
  let refused = 0;
  if (cap > 0) {
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? '';
      const count = (open.get(address) ?? 0) + 1;
      if (count > cap) {
        refused++;
        refuse(socket);
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return { server, listening, refused: () => refused };
}
