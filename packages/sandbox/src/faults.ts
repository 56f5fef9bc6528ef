/**
 * The simulator's test controls, under `/__sandbox`:
 *
 * - Fault rules (`/__sandbox/faults`): make matching requests slow, fail, or answer garbage,
 *   so clients can be tested against every way an upstream can misbehave. Off by default.
 * - Call counting (`/__sandbox/calls`): how many requests each `METHOD path` received, so a
 *   test can prove a client never repeated a call.
 * - Clock (`/__sandbox/clock`): the simulator's time, which tests move forward (for the
 *   90-second validation deadline, session expiry, link expiry).
 * - `POST /__sandbox/reset`: all three back to their start.
 *
 * Requests to `/__sandbox` itself are never counted and never faulted.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';

export const FAULT_KINDS = ['latency', 'status', 'malformed', 'html', 'truncated', 'schema', 'large', 'hang', 'reset'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A rule as given to `POST /__sandbox/faults`. */
export interface FaultRuleInput {
  /** Exact path, or a prefix ending in `*` (`/test/*`; `*` alone matches every path). */
  path: string;
  /** HTTP method; any method when absent. */
  method?: string;
  kind: FaultKind;
  /** Wait before answering, in ms: required by `latency`, optional for every other kind. */
  ms?: number;
  /** HTTP status of the `status` kind. Default 503. */
  status?: number;
  /** How many requests the rule hits; unlimited when absent. */
  times?: number;
}

export interface FaultRule extends FaultRuleInput {
  id: number;
  /** Requests the rule has hit so far. */
  hits: number;
}

export const CONTROL_PREFIX = '/__sandbox';
/** Size of the `large` kind's body. */
export const LARGE_BODY_BYTES = 10 * 1024 * 1024;
const MAX_MS = 10 * 60_000;
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3600_000;
const MAX_RULES = 100;
/** Distinct `METHOD path` keys counted; later new keys are counted under OTHER_CALLS. */
const MAX_CALL_KEYS = 5_000;
const OTHER_CALLS = '* (other paths)';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

type Check<T> = { ok: true; value: T } | { ok: false; error: string };

const isWhole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Validates a rule body; the error names the field and what it must be. */
export function parseFaultRule(body: unknown): Check<FaultRuleInput> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, error: 'body must be a JSON object' };
  const b = body as Record<string, unknown>;
  const known = ['path', 'method', 'kind', 'ms', 'status', 'times'];
  const unknown = Object.keys(b).filter((k) => !known.includes(k));
  if (unknown.length) return { ok: false, error: `unknown field(s): ${unknown.join(', ')}; allowed: ${known.join(', ')}` };
  if (typeof b.path !== 'string' || !/^(\*|\/[^\s?#]{0,500})$/.test(b.path)) {
    return { ok: false, error: 'path must be a path starting with / (a prefix when it ends with *), or *' };
  }
  if (b.path.indexOf('*') !== -1 && b.path.indexOf('*') !== b.path.length - 1) {
    return { ok: false, error: 'path: * may only end the path' };
  }
  if (typeof b.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(b.kind)) {
    return { ok: false, error: `kind must be one of ${FAULT_KINDS.join(', ')}` };
  }
  const kind = b.kind as FaultKind;
  const rule: FaultRuleInput = { path: b.path, kind };
  if (b.method !== undefined) {
    const method = typeof b.method === 'string' ? b.method.toUpperCase() : '';
    if (!METHODS.includes(method)) return { ok: false, error: `method must be one of ${METHODS.join(', ')}` };
    rule.method = method;
  }
  if (b.ms !== undefined || kind === 'latency') {
    if (!isWhole(b.ms, 0, MAX_MS)) {
      return { ok: false, error: `ms must be a whole number of milliseconds from 0 to ${MAX_MS}${kind === 'latency' ? ' (required by latency)' : ''}` };
    }
    rule.ms = b.ms;
  }
  if (b.status !== undefined) {
    if (kind !== 'status') return { ok: false, error: 'status applies only to kind status' };
    if (!isWhole(b.status, 200, 599) || [204, 205, 304].includes(b.status)) {
      return { ok: false, error: 'status must be an HTTP status from 200 to 599 that carries a body (not 204, 205, 304)' };
    }
    rule.status = b.status;
  }
  if (b.times !== undefined) {
    if (!isWhole(b.times, 1, 1_000_000)) return { ok: false, error: 'times must be a whole number from 1 to 1000000' };
    rule.times = b.times;
  }
  return { ok: true, value: rule };
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method !== method) return false;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

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
  'descripción': 404,
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

async function applyFault(c: Context, rule: FaultRule, next: () => Promise<void>): Promise<Response | void> {
  const signal = c.req.raw.signal;
  await wait(rule.ms ?? 0, signal);
  switch (rule.kind) {
    case 'latency':
      // The request is still processed when the client gave up meanwhile: as with a real
      // provider, the operation may have happened although its answer was lost.
      return next();
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
      return;
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

async function readControlBody(c: Context): Promise<Check<unknown>> {
  const text = await c.req.text();
  if (text.length > 16 * 1024) return { ok: false, error: 'body too large (max 16 KiB)' };
  try {
    return { ok: true, value: text.trim() === '' ? {} : JSON.parse(text) };
  } catch {
    return { ok: false, error: 'body is not valid JSON' };
  }
}

export function createFaults(now: () => number) {
  let rules: FaultRule[] = [];
  let nextId = 1;
  let offset = 0;
  const calls = new Map<string, number>();

  const clock = () => now() + offset;

  function count(key: string) {
    const k = calls.has(key) || calls.size < MAX_CALL_KEYS ? key : OTHER_CALLS;
    calls.set(k, (calls.get(k) ?? 0) + 1);
  }

  /** The first live rule for this request, with its hit counted (and dropped when spent). */
  function take(method: string, path: string): FaultRule | undefined {
    const rule = rules.find((r) => matches(r, method, path));
    if (!rule) return undefined;
    rule.hits++;
    if (rule.times !== undefined && rule.hits >= rule.times) rules = rules.filter((r) => r !== rule);
    return { ...rule };
  }

  const api = {
    /** Adds a rule; throws a TypeError naming the problem when the rule is invalid. */
    add(input: FaultRuleInput): FaultRule {
      const parsed = parseFaultRule(input);
      if (!parsed.ok) throw new TypeError(parsed.error);
      if (rules.length >= MAX_RULES) throw new TypeError(`at most ${MAX_RULES} fault rules at once`);
      const rule: FaultRule = { id: nextId++, ...parsed.value, hits: 0 };
      rules.push(rule);
      return { ...rule };
    },
    rules: (): FaultRule[] => rules.map((r) => ({ ...r })),
    clear() {
      rules = [];
    },
    /** `{ "<METHOD> <path>": count }` of every request received outside `/__sandbox`. */
    calls: (): Record<string, number> => Object.fromEntries(calls),
    clearCalls() {
      calls.clear();
    },
    /** Moves the simulator's clock forward. */
    advance(ms: number): number {
      if (!isWhole(ms, 0, MAX_ADVANCE_MS)) throw new TypeError(`advanceMs must be a whole number from 0 to ${MAX_ADVANCE_MS}`);
      offset += ms;
      return clock();
    },
  };

  const middleware: MiddlewareHandler = async (c, next) => {
    const path = c.req.path;
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return next();
    const method = c.req.method.toUpperCase();
    count(`${method} ${path}`);
    const rule = take(method, path);
    if (!rule) return next();
    const res = await applyFault(c, rule, next);
    if (res) return res;
  };

  const bad = (c: Context, error: string) => c.json({ error }, 400);

  const routes = new Hono()
    .get('/faults', (c) => c.json({ rules: api.rules() }))
    .post('/faults', async (c) => {
      const body = await readControlBody(c);
      if (!body.ok) return bad(c, body.error);
      const parsed = parseFaultRule(body.value);
      if (!parsed.ok) return bad(c, parsed.error);
      if (rules.length >= MAX_RULES) return bad(c, `at most ${MAX_RULES} fault rules at once; DELETE /__sandbox/faults first`);
      return c.json({ rule: api.add(parsed.value) }, 201);
    })
    .delete('/faults', (c) => {
      const cleared = rules.length;
      api.clear();
      return c.json({ cleared });
    })
    .get('/calls', (c) => c.json(api.calls()))
    .delete('/calls', (c) => {
      api.clearCalls();
      return c.json({ cleared: true });
    })
    .get('/clock', (c) => c.json({ now: clock() }))
    .post('/clock', async (c) => {
      const body = await readControlBody(c);
      if (!body.ok) return bad(c, body.error);
      const advanceMs = (body.value as { advanceMs?: unknown } | null)?.advanceMs;
      if (!isWhole(advanceMs, 0, MAX_ADVANCE_MS)) {
        return bad(c, `advanceMs must be a whole number of milliseconds from 0 to ${MAX_ADVANCE_MS}`);
      }
      return c.json({ now: api.advance(advanceMs) });
    })
    .post('/reset', (c) => {
      reset();
      return c.json({ now: clock() });
    });

  /** Clears every rule and count and puts the clock back. */
  function reset() {
    rules = [];
    calls.clear();
    offset = 0;
  }

  return { middleware, routes, now: clock, reset, ...api };
}

export type Faults = ReturnType<typeof createFaults>;
