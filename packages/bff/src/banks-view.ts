/**
 * The native bank list as the elements get it (`GET /v1/banks`, the launch's first screen, the
 * frame's page written with it): the provider's groups with each bank's public view, serialised
 * and given its ETag once per list the BFF read (the upstream cache's list object).
 */
import { createHash } from 'node:crypto';
import type { BankGroupView } from '@bank-checkout/contract';
import type { BankGroup } from '@bank-checkout/provider';
import { bankView } from './checkout/view.js';

export interface BanksBody {
  groups: BankGroupView[];
  /** `{"groups":…}`, as sent. */
  json: string;
  /** Strong, from the JSON: it changes with the list, a bank's maintenance flag included. */
  etag: string;
}

/** The view of a bank list, made once per list read (the last one is kept). */
export function banksViewer(sandbox: boolean): (groups: BankGroup[]) => BanksBody {
  let last: { from: BankGroup[]; body: BanksBody } | null = null;
  return (from) => {
    if (last?.from !== from) {
      const groups = from.map((g) => ({ group: g.group, name: g.name, defaultType: g.defaultType, types: g.types.map((t) => bankView(t, sandbox)) }));
      const json = JSON.stringify({ groups });
      last = { from, body: { groups, json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` } };
    }
    return last.body;
  };
}
