/**
 * The commands of `bank-checkout-bff`, their usage, and the operator's commands for shops
 * without the demo console: checkouts by state (`unknown` first), a decision on one, a cancel,
 * webhook events that never got through and a redelivery, and the feed of changes as JSON
 * lines.
 *
 * The operator's commands call the merchant API of a running BFF (`BFF_URL`, with
 * `BFF_MERCHANT_SECRET`), never the database: every change then goes through the BFF that owns
 * the checkouts (its state machine, its webhook outbox, its logs), whatever the store (the
 * embedded SQLite file has one writer, the BFF's process) and however many instances run, and
 * the operator needs the merchant secret, not the database's credentials.
 *
 * This module loads no configuration, store or server: `--help` on any command prints its
 * usage and starts nothing.
 */
import { parseArgs } from 'node:util';
import type { MerchantCheckout, WebhookEventEntry } from './merchant-client.js';

interface Command {
  /** The arguments, as the usage line shows them. */
  args: string;
  /** What it does, a line or two. */
  about: string;
  /** The options it takes (name: what it does). */
  options?: Record<string, string>;
  /** Calls the merchant API of a running BFF. */
  operator?: boolean;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    args: '',
    about: 'Runs the BFF (the default command), configured by its environment (PORT, DATABASE_URL, BFF_MERCHANT_SECRET, …).',
  },
  checkouts: {
    args: '[--state <state>] [--limit <n>] [--json]',
    about: 'Lists checkouts by state: those left unknown first (waiting for your decision), then the latest of every other state.',
    options: { '--state': 'only checkouts in this state', '--limit': 'how many of each (default 20)', '--json': 'one JSON object a line' },
    operator: true,
  },
  resolve: {
    args: '<checkout-id> <succeeded|failed> [--note <text>]',
    about: 'Records what the bank confirmed about a checkout left unknown (ask the bank first).',
    options: { '--note': 'how you checked (kept with the decision, 500 characters at most)' },
    operator: true,
  },
  cancel: {
    args: '<checkout-id>',
    about: 'Cancels an open checkout for good (a changed cart); its reference then takes a new checkout.',
    operator: true,
  },
  events: {
    args: '[--status <failed|pending|delivered>] [--limit <n>] [--json]',
    about: 'Lists webhook events, newest first: by default those that never got through (failed).',
    options: { '--status': 'failed (default), pending or delivered', '--limit': 'how many (default 20)', '--json': 'one JSON object a line' },
    operator: true,
  },
  redeliver: {
    args: '<event-id>',
    about: 'Sends a webhook event again (at once, then with the usual retries).',
    operator: true,
  },
  changes: {
    args: '[--after <position>] [--limit <n>]',
    about:
      'Prints the feed of changes as JSON lines, oldest first: {"checkout": …} for each checkout changed after the position (0: from the first), and {"next": …} after each page: keep the last one and pass it as --after to read on.',
    options: { '--after': 'where to read on from (default 0)', '--limit': 'how many at most (default 1000)' },
    operator: true,
  },
  prune: {
    args: '[--dry-run]',
    about: 'Applies the retention settings once to the store DATABASE_URL names (RETENTION_*).',
    options: { '--dry-run': 'says what would be deleted, deletes nothing' },
  },
  secret: {
    args: '',
    about: 'Prints a new random secret (256 bits, whsec_…) for BFF_MERCHANT_SECRET or MERCHANT_WEBHOOK_SECRET.',
  },
};

const HELP_FLAGS = new Set(['--help', '-h']);

/** What the command line asks for: a command with its arguments, its usage, or an unknown command. */
export function commandOf(
  argv: readonly string[],
): { kind: 'help'; command?: string } | { kind: 'run'; command: string; args: string[] } | { kind: 'unknown'; command: string } {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'run', command: 'serve', args: [] };
  if (first === 'help' || HELP_FLAGS.has(first)) return { kind: 'help', ...(rest[0] && COMMANDS[rest[0]] ? { command: rest[0] } : {}) };
  if (!Object.hasOwn(COMMANDS, first)) return { kind: 'unknown', command: first };
  if (rest.some((a) => HELP_FLAGS.has(a))) return { kind: 'help', command: first };
  return { kind: 'run', command: first, args: rest };
}

const OPERATOR_ENV = [
  'The operator commands call the merchant API of a running BFF:',
  '  BFF_URL              its address (default http://127.0.0.1:$PORT, PORT 4020)',
  '  BFF_MERCHANT_SECRET  the merchant secret it was started with',
];

/** The usage of one command, or of them all. */
export function usage(command?: string): string {
  const line = (name: string, c: Command) => `bank-checkout-bff ${name}${c.args ? ` ${c.args}` : ''}`;
  if (command) {
    const c = COMMANDS[command]!;
    const options = Object.entries(c.options ?? {}).map(([o, about]) => `  ${o.padEnd(10)} ${about}`);
    return [
      `Usage: ${line(command, c)}`,
      '',
      c.about,
      ...(options.length ? ['', 'Options:', ...options] : []),
      ...(c.operator ? ['', ...OPERATOR_ENV] : []),
    ].join('\n');
  }
  return [
    'Usage: bank-checkout-bff [command] [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.about}`),
    '',
    ...OPERATOR_ENV,
    '',
    '`bank-checkout-bff <command> --help` shows the options of one.',
  ].join('\n');
}

/** Where an operator command writes: lines to standard output and to standard error. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** A refusal of the command line itself (exit status 2). */
class UsageError extends Error {}

const eur = (cents: number) => `${(cents / 100).toFixed(2)} EUR`;

function checkoutLine(c: MerchantCheckout): string {
  return [c.id, c.state.padEnd(15), eur(c.amount).padStart(13), c.reference, c.updatedAt].join('  ');
}

function eventLine(e: WebhookEventEntry): string {
  const about = (e.data as { checkoutId?: string; id?: string } | null)?.checkoutId ?? (e.data as { id?: string } | null)?.id ?? '';
  return [e.id, e.type.padEnd(22), e.status.padEnd(9), `${e.attempts} attempts`, e.createdAt, about, e.lastError ?? ''].join('  ').trimEnd();
}

/** `--limit`, a whole number from 1 to `max`. */
function limitOf(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--limit takes a whole number from 1 to ${max}`);
  return n;
}

/**
 * Runs an operator command against the BFF at BFF_URL; the exit status: 0 done, 1 refused or
 * not reached (the reason on standard error), 2 a bad command line.
 */
export async function runOperator(command: string, args: string[], env: Record<string, string | undefined>, io: Io, fetchImpl?: typeof fetch): Promise<number> {
  const { createMerchantClient, MerchantApiError } = await import('./merchant-client.js');
  const url = env.BFF_URL || `http://127.0.0.1:${env.PORT || '4020'}`;
  // Named in messages without any user or password the address may hold.
  const shown = URL.canParse(url) ? new URL(url).origin : 'BFF_URL';
  try {
    if (!env.BFF_MERCHANT_SECRET) throw new UsageError('BFF_MERCHANT_SECRET is not set: the operator commands call the merchant API of a running BFF with it');
    const bff = createMerchantClient({ url, secret: env.BFF_MERCHANT_SECRET, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
    await OPERATIONS[command]!(bff, args, io);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`bff: ${command}: ${err.message} (bank-checkout-bff ${command} --help)`);
      return 2;
    }
    if (err instanceof MerchantApiError) {
      const issues = err.issues.map((i) => ` ${i.path} ${i.message}.`).join('');
      io.err(
        err.status === 0 ? `bff: ${command}: the BFF at ${shown} (BFF_URL) could not be reached` : `bff: ${command}: ${err.code}: ${err.message}${issues}`,
      );
      return 1;
    }
    // parseArgs refuses an unknown option or a missing value with a TypeError naming it.
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`bff: ${command}: ${err.message} (bank-checkout-bff ${command} --help)`);
      return 2;
    }
    throw err;
  }
}

type Client = ReturnType<typeof import('./merchant-client.js').createMerchantClient>;

/** The arguments of a command: its options, and exactly `count` positionals. */
function parse<O extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: O, count: number) {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  if (positionals.length !== count) throw new UsageError(count ? `takes ${count} argument${count > 1 ? 's' : ''}` : 'takes no argument');
  return { values, positionals };
}

const STATES_FIRST = ['unknown'] as const;

const OPERATIONS: Record<string, (bff: Client, args: string[], io: Io) => Promise<void>> = {
  async checkouts(bff, args, io) {
    const { values } = parse(args, { state: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } }, 0);
    const limit = limitOf(values.limit, 20, 200);
    const show = (c: MerchantCheckout) => io.out(values.json ? JSON.stringify(c) : `  ${checkoutLine(c)}`);
    if (values.state) {
      const page = await bff.listCheckouts({ state: values.state as never, limit });
      if (!values.json) io.out(`${values.state}: ${page.checkouts.length}${page.next ? ' (the latest)' : ''}`);
      page.checkouts.forEach(show);
      return;
    }
    // Those waiting for a decision, every one of them, first.
    const unknown: MerchantCheckout[] = [];
    for (let cursor: string | null | undefined; cursor !== null;) {
      const page: Awaited<ReturnType<Client['listCheckouts']>> = await bff.listCheckouts({ state: STATES_FIRST[0], limit: 200, ...(cursor ? { cursor } : {}) });
      unknown.push(...page.checkouts);
      cursor = page.next;
    }
    if (!values.json) {
      io.out(
        unknown.length
          ? `unknown: ${unknown.length} waiting for your decision (ask the bank, then: bank-checkout-bff resolve <checkout-id> succeeded|failed)`
          : 'unknown: none waiting for your decision',
      );
    }
    unknown.forEach(show);
    // Then the latest of the others, by state.
    const recent = (await bff.listCheckouts({ limit })).checkouts.filter((c) => c.state !== 'unknown');
    const byState = new Map<string, MerchantCheckout[]>();
    for (const c of recent) byState.set(c.state, [...(byState.get(c.state) ?? []), c]);
    for (const [state, list] of byState) {
      if (!values.json) io.out(`${state}: ${list.length} of the latest ${limit}`);
      list.forEach(show);
    }
  },

  async resolve(bff, args, io) {
    const { values, positionals } = parse(args, { note: { type: 'string' } }, 2);
    const [id, outcome] = positionals as [string, string];
    if (outcome !== 'succeeded' && outcome !== 'failed') throw new UsageError('the outcome is succeeded or failed');
    const c = await bff.resolveCheckout(id, outcome, values.note);
    io.out(`${c.id} resolved as ${c.state} (${c.reference}, ${eur(c.amount)})`);
  },

  async cancel(bff, args, io) {
    const { positionals } = parse(args, {}, 1);
    const c = await bff.cancelCheckout(positionals[0]!);
    io.out(`${c.id} cancelled (${c.reference}, ${eur(c.amount)}): its reference takes a new checkout`);
  },

  async events(bff, args, io) {
    const { values } = parse(args, { status: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } }, 0);
    const status = values.status ?? 'failed';
    if (status !== 'failed' && status !== 'pending' && status !== 'delivered') throw new UsageError('--status is failed, pending or delivered');
    const page = await bff.listWebhookEvents({ status, limit: limitOf(values.limit, 20, 200) });
    if (!values.json) {
      io.out(
        `${status}: ${page.events.length}${page.next ? ' (the latest)' : ''}${status === 'failed' && page.events.length ? ' (send one again: bank-checkout-bff redeliver <event-id>)' : ''}`,
      );
    }
    for (const e of page.events) io.out(values.json ? JSON.stringify(e) : `  ${eventLine(e)}`);
  },

  async redeliver(bff, args, io) {
    const { positionals } = parse(args, {}, 1);
    const e = await bff.redeliverWebhookEvent(positionals[0]!);
    io.out(`${e.id} queued again (${e.type}): it is sent at once, then retried as usual`);
  },

  async changes(bff, args, io) {
    const { values } = parse(args, { after: { type: 'string' }, limit: { type: 'string' } }, 0);
    let after = values.after ?? '0';
    let left = limitOf(values.limit, 1000, 1_000_000);
    for (;;) {
      const size = Math.min(200, left);
      const page = await bff.listCheckouts({ after, limit: size });
      for (const c of page.checkouts) io.out(JSON.stringify({ checkout: c }));
      // Where to read on from, after each page: a reader keeps the last one it got to.
      after = page.next!;
      io.out(JSON.stringify({ next: after }));
      left -= page.checkouts.length;
      if (page.checkouts.length < size || left <= 0) return;
    }
  },
};
