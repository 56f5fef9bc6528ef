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
import { applyFault } from './fault-responses.js';
import { isWhole, matches, MAX_ADVANCE_MS, parseFaultRule, type Check, type FaultRule, type FaultRuleInput } from './fault-rules.js';

export { FAULT_KINDS, parseFaultRule, type FaultKind, type FaultRule, type FaultRuleInput } from './fault-rules.js';

const CONTROL_PREFIX = '/__sandbox';
const MAX_RULES = 100;
/** Distinct `METHOD path` keys counted; later new keys are counted under OTHER_CALLS. */
const MAX_CALL_KEYS = 5_000;
const OTHER_CALLS = '* (other paths)';

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
