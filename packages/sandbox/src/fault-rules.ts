/** Fault rules of the simulator's fault switch: their kinds, their validation, their matching. */
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

const MAX_MS = 10 * 60_000;
/** The furthest the clock may be moved in one step. */
export const MAX_ADVANCE_MS = 10 * 366 * 24 * 3600_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export type Check<T> = { ok: true; value: T } | { ok: false; error: string };

export const isWhole = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

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

/** Whether `rule` applies to a request of `method` on `path`. */
export function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method !== method) return false;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}
