/**
 * Structured JSON logs, one line per event, with redaction. Callers log events and ids, never
 * bodies; the redactor is the second line of defence: any key that can hold a secret, a
 * credential or a code is replaced before the line is written.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const SENSITIVE =
  /^(authorization|x-api-key|x-checkout-secret|apikey|apitoken|api_key|api_token|token|secret|clientsecret|client_secret|password|usersecret|userid|userextrafield|valuefromuser|value|values|fields|code|otp|signature|signaturedatareturn|datareturn|sessionid|transactionid|cookie|set-cookie|merchantsecret|debtoraccount)$/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[depth]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

export interface Logger {
  log(level: Level, event: string, fields?: Record<string, unknown>): void;
  /** Whether a line at `level` is written (absent: every level may be). */
  writes?(level: Level): boolean;
}

/** The request being served: every line logged while it runs carries its id. */
const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` as part of the request `requestId` (its log lines, upstream calls and transitions). */
export function inRequest<T>(requestId: string, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

export function createLogger(level: Level | 'silent', write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const min = ORDER[level];
  return {
    writes: (lvl) => ORDER[lvl] >= min,
    log(lvl, event, fields = {}) {
      if (ORDER[lvl] < min) return;
      const requestId = scope.getStore()?.requestId;
      write(JSON.stringify({ time: new Date().toISOString(), level: lvl, event, ...(requestId ? { requestId } : {}), ...(redact(fields) as object) }));
    },
  };
}
