/**
 * What every fault test shares: the BFF and the simulator in one process with a short
 * provider timeout, the faults the simulator can inject and the answer each one must get, and
 * assertions on the error shape, the waits of timeouts and the simulator's call log.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FaultRuleInput } from '@bank-checkout/sandbox/testing';
import { errorBody } from '@bank-checkout/contract/schemas';
import type { CheckoutView } from '@bank-checkout/contract';
import { createHarness, type Harness } from '../../packages/bff/test/harness.js';
import { walk } from '../../packages/bff/test/flow.js';

/** The provider timeout of the suite: short, so timeouts cost little. */
export const TIMEOUT_MS = 300;
/** Attempts of a read-only call on persistent upstream faults (packages/bff/src/upstream.ts). */
export const READ_ONLY_TRIES = 3;
/**
 * Longest total wait between the tries of a read-only call with the BFF's default delay
 * (100 ms × 3^(n-1), jittered up to ×1.5: packages/bff/src/upstream.ts). The in-process harness
 * shortens the delay to 1 ms.
 */
export const READ_ONLY_BACKOFF_MAX_MS = 100 * 1.5 * (1 + 3);

export type FaultRule = Omit<FaultRuleInput, 'path' | 'method'>;

export interface Fault {
  name: string;
  rule: FaultRule;
  /** HTTP status and error code the BFF must answer with. */
  status: 502 | 504;
  code: 'upstream' | 'upstream_timeout';
  /** How the BFF classifies it in its `upstream.call` log line. */
  outcome: string;
}

/** Every way the simulator can fail a call, and the BFF's documented answer to it. */
export const FAULTS: Fault[] = [
  // Far slower than the timeout: the simulator stops waiting once the BFF gives up, so the margin
  // costs nothing, and a process stalled for seconds on a loaded machine still sees the timeout first.
  { name: 'an answer slower than the timeout', rule: { kind: 'latency', ms: TIMEOUT_MS + 10_000 }, status: 504, code: 'upstream_timeout', outcome: 'timeout' },
  { name: 'a hang (no answer at all)', rule: { kind: 'hang' }, status: 504, code: 'upstream_timeout', outcome: 'timeout' },
  { name: 'a connection reset', rule: { kind: 'reset' }, status: 502, code: 'upstream', outcome: 'network' },
  { name: 'HTTP 500', rule: { kind: 'status', status: 500 }, status: 502, code: 'upstream', outcome: 'http' },
  { name: 'HTTP 503', rule: { kind: 'status', status: 503 }, status: 502, code: 'upstream', outcome: 'http' },
  { name: 'an HTML error page', rule: { kind: 'html' }, status: 502, code: 'upstream', outcome: 'body' },
  { name: 'malformed JSON', rule: { kind: 'malformed' }, status: 502, code: 'upstream', outcome: 'body' },
  { name: 'truncated JSON', rule: { kind: 'truncated' }, status: 502, code: 'upstream', outcome: 'body' },
  { name: 'JSON of the wrong schema', rule: { kind: 'schema' }, status: 502, code: 'upstream', outcome: 'schema' },
  { name: 'a 10 MB body', rule: { kind: 'large' }, status: 502, code: 'upstream', outcome: 'too-large' },
];

/**
 * The BFF's timeout for the slow answer below: far above it, since the whole suite saturates a
 * two-core machine and an in-process stall of two seconds was seen there. A passing run never
 * waits for it.
 */
export const SLOW_TIMEOUT_MS = 15_000;
/** A slow answer (longer than the suite's own timeout) that still arrives well inside SLOW_TIMEOUT_MS: must succeed. */
export const SLOW_BUT_IN_TIME: FaultRule = { kind: 'latency', ms: TIMEOUT_MS };

/** Log of unhandled rejections and exceptions while the suite runs: a fault must not cause one. */
export const stray: unknown[] = [];
process.on('unhandledRejection', (reason) => stray.push(reason));
process.on('uncaughtExceptionMonitor', (err) => stray.push(err));

export function faultHarness(env: Record<string, string> = {}): Promise<Harness> {
  // No bank-list cache, so every request that needs the list reaches the simulator.
  return createHarness({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS), BANKS_CACHE_TTL_MS: '0', CHECKOUT_MAX_ATTEMPTS: '10', ...env });
}

/** The simulator's call log, read through its control API. */
export async function sandboxCalls(h: Harness): Promise<Record<string, number>> {
  const res = await h.sandbox.app.request('/__sandbox/calls');
  assert.equal(res.status, 200);
  return (await res.json()) as Record<string, number>;
}

/** Clears the simulator's rules and call log, then arms one rule on `METHOD path`. */
export async function arm(h: Harness, method: string, path: string, rule: FaultRule | null): Promise<void> {
  for (const p of ['/__sandbox/faults', '/__sandbox/calls']) {
    assert.equal((await h.sandbox.app.request(p, { method: 'DELETE' })).status, 200);
  }
  if (!rule) return;
  const res = await h.sandbox.app.request('/__sandbox/faults', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path, method, ...rule }),
  });
  assert.equal(res.status, 201, await res.text());
}

export async function disarm(h: Harness): Promise<void> {
  await arm(h, 'GET', '/', null);
}

/** Runs `fn` and measures how long it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/** The BFF's one error shape, with the expected status and code, and nothing upstream in it. */
export async function assertUpstreamError(res: Response, fault: Pick<Fault, 'status' | 'code'>, context = ''): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, fault.status, `${text.slice(0, 300)}${context ? `\n${context}` : ''}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const parsed = errorBody.strict().safeParse(JSON.parse(text));
  assert.ok(parsed.success, `error shape: ${text}`);
  assert.equal(parsed.data.error.code, fault.code);
  assert.match(parsed.data.error.requestId, /^req_/);
  assert.doesNotMatch(text, /<html|DOCTYPE|stack|at .+\.ts|xxxxxxxx|injected by the simulator/i, 'no upstream body or internals in the error');
}

/**
 * A timeout waited about the timeout once per try: never less. Only this lower bound is checked,
 * which a busy machine cannot break; how long any other fault took is not timed, since the
 * outcome the BFF logged for each try (`failedOutcomes`) and the status it answered already tell
 * a quick failure from a timeout.
 */
export function assertElapsed(ms: number, fault: Fault, tries: number): void {
  if (fault.status !== 504) return;
  const min = tries * TIMEOUT_MS - 20;
  assert.ok(ms >= min, `${ms.toFixed(0)} ms: less than ${tries} timeouts of ${TIMEOUT_MS} ms`);
}

/** The upstream calls the BFF logged since log line `from`, in short. */
function upstreamLog(h: Harness, from: number): string {
  return h.logs
    .slice(from)
    .map((line) => JSON.parse(line) as { event: string; endpoint?: string; outcome?: string; durationMs?: number })
    .filter((l) => l.event === 'upstream.call')
    .map((l) => `${l.endpoint} ${l.outcome} ${l.durationMs} ms`)
    .join(', ');
}

/** The outcomes of the upstream calls that failed, as the BFF logged them since log line `from`. */
export function failedOutcomes(h: Harness, from: number): string[] {
  return h.logs
    .slice(from)
    .map((line) => JSON.parse(line) as { event: string; outcome?: string })
    .filter((l) => l.event === 'upstream.call' && l.outcome !== 'ok')
    .map((l) => l.outcome!);
}

export async function viewOf(h: Harness, secret: string): Promise<CheckoutView> {
  const res = await h.checkout(secret, '/v1/checkout');
  assert.equal(res.status, 200);
  return (await res.json()) as CheckoutView;
}

/** The BFF still serves: a new checkout is paid from start to end through the same instance. */
export async function assertStillServes(h: Harness): Promise<void> {
  await disarm(h);
  const c = await h.createCheckout();
  const v = await walk(h, c.clientSecret, 'aurora');
  assert.equal(v.state, 'succeeded');
}

/** A request reaching one upstream call, ready to send. */
export interface Prepared {
  /** The checkout it acts on; none for merchant calls. */
  secret?: string;
  run(): Promise<Response>;
}

/** One upstream call, how to reach it through the BFF, and what the BFF must do around it. */
export interface FaultStep {
  name: string;
  /** The upstream call the fault hits, as the simulator logs it: `METHOD path`. */
  target: string;
  /** Whether the BFF may retry it (read-only calls only). */
  readOnly: boolean;
  /** Sets up what the request needs (making any upstream calls before the fault is armed). */
  prepare(h: Harness): Promise<Prepared>;
  /** Every upstream call the request makes when `target` keeps failing and is tried `tries` times. */
  calls(tries: number): Record<string, number>;
  /** Where the checkout is after the fault, and the error code its view shows. */
  after?(fault: Fault): { state: CheckoutView['state']; error: string | null };
  /** The same request works once the fault is gone (it leaves nothing that forbids trying again). */
  retry?: boolean | ((fault: Fault) => boolean);
  /** HTTP status of the request with no fault (default 200). */
  okStatus?: number;
  /** The checkout's state after the request with no fault. */
  ok?: CheckoutView['state'];
  /** Every upstream call the request makes with no fault. */
  okCalls: Record<string, number>;
}

const split = (key: string) => key.split(' ') as [string, string];

async function assertState(h: Harness, secret: string | undefined, state: CheckoutView['state'] | undefined): Promise<void> {
  if (secret && state) assert.equal((await viewOf(h, secret)).state, state);
}

/**
 * One suite per upstream call: every fault of FAULTS, an answer slow but in time, and for a
 * read-only call one fault absorbed by a retry. Each suite has its own BFF and simulator.
 */
export function describeFaults(title: string, step: FaultStep): void {
  describe(`${title} (${step.target})`, { concurrency: 1 }, () => {
    let h: Harness;
    before(async () => {
      h = await faultHarness();
    });
    beforeEach(() => disarm(h));
    after(async () => {
      await h.close();
      assert.deepEqual(stray, [], 'no unhandled rejection or exception');
    });

    const tries = step.readOnly ? READ_ONLY_TRIES : 1;
    const [method, path] = split(step.target);
    const okStatus = step.okStatus ?? 200;

    for (const fault of FAULTS) {
      it(`${fault.name} → ${fault.status} ${fault.code}, ${tries === 1 ? 'called once' : `tried ${tries} times`}`, async () => {
        const { secret, run } = await step.prepare(h);
        await arm(h, method, path, fault.rule);
        const logged = h.logs.length;
        const { value: res, ms } = await timed(run);
        // On a failure, the upstream calls the BFF logged meanwhile say what it saw.
        await assertUpstreamError(res, fault, `${ms.toFixed(0)} ms; ${upstreamLog(h, logged)}`);
        assertElapsed(ms, fault, tries);
        assert.deepEqual(await sandboxCalls(h), step.calls(tries));
        assert.deepEqual(failedOutcomes(h, logged), Array(tries).fill(fault.outcome));

        if (secret && step.after) {
          const v = await viewOf(h, secret);
          const expected = step.after(fault);
          assert.equal(v.state, expected.state);
          assert.equal(v.error?.code ?? null, expected.error);
        }
        if (typeof step.retry === 'function' ? step.retry(fault) : step.retry) {
          await disarm(h);
          const again = await run();
          assert.equal(again.status, okStatus, await again.text());
          await assertState(h, secret, step.ok);
        }
        await assertStillServes(h);
      });
    }

    it('an answer slower than usual but inside the timeout succeeds, called once', async () => {
      // A BFF of its own with a timeout far above the answer's delay: in this one process the
      // simulator, the BFF and the test share an event loop, and a busy stretch of the suite's
      // own work must not turn "in time" into a timeout.
      const slow = await faultHarness({ PROVIDER_TIMEOUT_MS: String(SLOW_TIMEOUT_MS) });
      try {
        const { secret, run } = await step.prepare(slow);
        await arm(slow, method, path, SLOW_BUT_IN_TIME);
        const res = await run();
        assert.equal(res.status, okStatus, await res.text());
        assert.deepEqual(await sandboxCalls(slow), step.okCalls);
        await assertState(slow, secret, step.ok);
      } finally {
        await slow.close();
      }
    });

    if (step.readOnly) {
      it('one fault is absorbed by one retry', async () => {
        const { secret, run } = await step.prepare(h);
        await arm(h, method, path, { kind: 'status', status: 503, times: 1 });
        const res = await run();
        assert.equal(res.status, okStatus, await res.text());
        assert.deepEqual(await sandboxCalls(h), { ...step.okCalls, [step.target]: 2 });
        await assertState(h, secret, step.ok);
      });
    }
  });
}
