/**
 * A plain reference model of the selector's search, for tests only: the groups with their banks
 * that match `query` (in the bank's label or the group's name). The person type narrows the list
 * only when the payer is choosing without searching: a search finds a bank under either type.
 * Null: no person type is asked. The selector's own search (bank-selector/bank-list.ts) must
 * list the same banks in the same order.
 */
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { banksFor, searchText, type PersonType } from '../src/logic/banks.js';
import { normalizeForSearch } from '../src/logic/format.js';

export interface BankGroupMatch {
  group: BankGroupView;
  banks: BankView[];
}

export function filterBanks(groups: readonly BankGroupView[], query: string, personType: PersonType | null): BankGroupMatch[] {
  const q = normalizeForSearch(query);
  if (q !== '') personType = null;
  const out: BankGroupMatch[] = [];
  for (const group of groups) {
    const groupHit = q === '' || searchText(group, group.name).includes(q);
    const banks = banksFor(group, personType).filter((b) => groupHit || searchText(b, b.label).includes(q));
    if (banks.length) out.push({ group, banks });
  }
  return out;
}
