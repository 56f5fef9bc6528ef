/** How a request hit by a fault rule is answered: late, failing, garbled, huge, or never. */
import type { Context } from 'hono';
import type { FaultRule } from './fault-rules.js';

/** Size of the `large` kind's body. */
const LARGE_BODY_BYTES = 10 * 1024 * 1024;

/** Resolves after `ms`, or as soon as `signal` aborts; leaves no timer behind. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves when `signal` aborts (never, for a request nobody can abort). */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** A 200 response whose body stream fails: what a client sees when the connection drops. */
function brokenResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(new Error('connection reset by the simulator (fault rule)'));
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Closes the client's connection when served by @hono/node-server (whatever is answered after
 * that goes nowhere); under `app.request`, where there is no socket, a broken body instead.
 */
function dropConnection(c: Context): Response {
  const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
  if (!socket) return brokenResponse();
  socket.destroy();
  return new Response(null, { status: 200 });
}

const encoder = new TextEncoder();
const LARGE_CHUNK = encoder.encode('x'.repeat(64 * 1024));

/** `{"status":"200","description":"OK","padding":"xxx…"}` of LARGE_BODY_BYTES, streamed. */
function largeBody(): ReadableStream<Uint8Array> {
  const head = encoder.encode('{"status":"200","description":"OK","padding":"');
  const tail = encoder.encode('"}');
  let left = LARGE_BODY_BYTES - head.byteLength - tail.byteLength;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(head);
      } else if (left > 0) {
        const n = Math.min(left, LARGE_CHUNK.byteLength);
        controller.enqueue(n === LARGE_CHUNK.byteLength ? LARGE_CHUNK : LARGE_CHUNK.subarray(0, n));
        left -= n;
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
}

/** A provider-looking success whose fields have the wrong types for every endpoint's schema. */
const WRONG_TYPES = {
  status: '200',
  description: 404,
  descripción: 404,
  sessionId: 12345,
  transactionId: 67890,
  listBanks: 'not-a-list',
  listContracts: 'not-a-list',
  listAccounts: { accountId: 1 },
  validations: 'not-a-list',
  url: 42,
  idDebt: false,
  total: 'many',
  data: 'not-a-list',
  paymentOrders: 7,
  listDebts: 7,
};

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>' +
  '<body><h1>Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>';

/** Answers a request hit by `rule` the way the rule's kind misbehaves. */
export async function applyFault(c: Context, rule: FaultRule, next: () => Promise<void>): Promise<Response | undefined> {
  const signal = c.req.raw.signal;
  await wait(rule.ms ?? 0, signal);
  switch (rule.kind) {
    case 'latency':
      // The request is still processed when the client gave up meanwhile: as with a real
      // provider, the operation may have happened although its answer was lost.
      await next();
      return undefined;
    case 'status': {
      const status = rule.status ?? 503;
      return c.text(`HTTP ${status}: injected by the simulator's fault rule`, status as 503);
    }
    case 'malformed':
      return c.body('{"status":"200","description":OK,,', 200, { 'Content-Type': 'application/json' });
    case 'html':
      return c.html(HTML_PAGE, 200);
    case 'truncated': {
      await next();
      const text = await c.res.text();
      c.res = new Response(text.slice(0, Math.floor(text.length / 2)), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
      return undefined;
    }
    case 'schema':
      return c.json(WRONG_TYPES, 200);
    case 'large':
      return c.body(largeBody(), 200, { 'Content-Type': 'application/json' });
    case 'hang':
      await aborted(signal);
      return dropConnection(c);
    case 'reset':
      return dropConnection(c);
  }
}
