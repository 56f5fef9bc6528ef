/**
 * Writes the BFF README's state tables from the checkout's declaration
 * (packages/bff/src/checkout/declaration.ts): what each state accepts, what time does to it and
 * the data it holds; where each action may lead; what else changes a checkout; and, state by
 * state, every transition that leaves it. A test keeps the README current.
 *   npx tsx scripts/state-table.ts          rewrites the tables in packages/bff/README.md
 *   npx tsx scripts/state-table.ts --check  fails when they are not current
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHECKOUT_ACTIONS, CHECKOUT_STATES } from '@bank-checkout/contract';
import { ACTIONS, CHANGES, FROM_ENDING, RESOLVE, STATES, targetsOf, type Change } from '../packages/bff/src/checkout/transitions.js';

export const README = fileURLToPath(new URL('../packages/bff/README.md', import.meta.url));

const code = (s: string) => `\`${s}\``;
const list = (xs: readonly string[]) => xs.map(code).join(', ');

function stateRows(): string[] {
  return CHECKOUT_STATES.map((s) => {
    const d = STATES[s];
    const actions = CHECKOUT_ACTIONS.filter((a) => d.on[a]).map((a) => (FROM_ENDING.includes(a) ? `${code(a)} (until the checkout expires)` : code(a)));
    let accepts = actions.length ? actions.join(', ') : 'none';
    if (RESOLVE.from.includes(s)) accepts += ` (the merchant resolves it: ${list(RESOLVE.to)})`;
    const time = [
      ...(d.time.deadline ? [`${d.time.deadline.windowMs / 1000} s deadline: ${code(d.time.deadline.to)} (${code(d.time.deadline.code)})`] : []),
      ...(d.time.expires ? [d.time.expires.grace ? 'expires (after the link grace period)' : 'expires'] : []),
    ];
    return `| ${code(s)} | ${accepts} | ${time.join('; ') || 'none'} | ${d.holds.length ? list(d.holds) : '-'} |`;
  });
}

/** What each change other than the payer's actions may do: from which states, to which. */
const CHANGE_MEANING: Record<Change, string> = {
  time: 'time alone: expiry, a deadline, a lease that lapsed',
  relaunch: 'a newer launch redeemed in another browser',
  resolve: "the merchant's decision",
  'merchant-cancel': "the merchant's cancellation",
  'link-result': 'a verified result of the bank’s page',
  'late-answer': 'a bank’s answer after its lease lapsed',
};
function changeRows(): string[] {
  return CHANGES.map((by) => {
    const moves = CHECKOUT_STATES.filter((s) => STATES[s].by[by]?.length).map((s) => `${code(s)} → ${list(STATES[s].by[by]!)}`);
    return `| ${code(by)} | ${CHANGE_MEANING[by]} | ${moves.join('; ')} |`;
  });
}

/** Which transitions leave each state, in one row: by the payer's actions, then by every other change. */
function fromRows(): string[] {
  return CHECKOUT_STATES.map((s) => {
    const d = STATES[s];
    const others = (to: readonly string[]) => to.filter((t) => t !== s);
    const byAction = CHECKOUT_ACTIONS.filter((a) => d.on[a]).map((a) => {
      const to = others(targetsOf(d.on[a]!));
      return `${code(a)} → ${to.length ? list(to) : 'stays'}`;
    });
    const byChange = CHANGES.filter((c) => others(d.by[c] ?? []).length).map((c) => `${c} → ${list(others(d.by[c]!))}`);
    return `| ${code(s)} | ${byAction.join('; ') || '-'} | ${byChange.join('; ') || '-'} |`;
  });
}

/** The tables, each with its markers, as they stand in the README. */
export function stateTables(): { states: string; actions: string; changes: string; from: string } {
  return {
    from: ['| From | By the payer | By anything else |', '|---|---|---|', ...fromRows()].join('\n'),
    states: ['| State | Actions | Time | Holds |', '|---|---|---|---|', ...stateRows()].join('\n'),
    actions: ['| Action | Leads to |', '|---|---|', ...CHECKOUT_ACTIONS.map((a) => `| ${code(a)} | ${list(ACTIONS[a].to)} |`)].join('\n'),
    changes: ['| Change | By | From → to |', '|---|---|---|', ...changeRows()].join('\n'),
  };
}

/** `text` with the tables between their markers replaced by the current ones. */
export function withTables(text: string): string {
  let out = text;
  for (const [name, table] of Object.entries(stateTables())) {
    const begin = `<!-- ${name}:begin -->`;
    const end = `<!-- ${name}:end -->`;
    const [head, rest] = out.split(begin);
    const tail = rest?.split(end)[1];
    if (head === undefined || tail === undefined) throw new Error(`README has no ${name} table markers`);
    out = `${head}${begin}\n${table}\n${end}${tail}`;
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = readFileSync(README, 'utf8');
  const next = withTables(text);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error('packages/bff/README.md: the state tables are not current; run npx tsx scripts/state-table.ts');
      process.exit(1);
    }
  } else if (next !== text) writeFileSync(README, next);
}
