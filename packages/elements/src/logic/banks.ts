/**
 * The bank list's pieces: person type, each name as searched (accent- and case-insensitive),
 * and the last bank used on this device (its id only). The selector's search itself is
 * bank-selector/bank-list.ts.
 */
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { normalizeForSearch } from './format.js';

/** 0 natural person, 1 legal person (BankType.type). */
export type PersonType = 0 | 1;

/** A group offers both a natural-person and a legal-person bank. */
export function hasBothPersonTypes(group: BankGroupView): boolean {
  return group.types.some((b) => b.type === 0) && group.types.some((b) => b.type === 1);
}

/** The payer must say which person type they are when some group has banks for both. */
export function needsPersonType(groups: readonly BankGroupView[]): boolean {
  return groups.some(hasBothPersonTypes);
}

/** The banks of a group for a person type (null: every bank, when no choice is asked). */
export function banksFor(group: BankGroupView, personType: PersonType | null): BankView[] {
  return personType === null ? group.types : group.types.filter((b) => b.type === personType);
}

/** Each bank's and group's name as searched, worked out once per view object. */
const searchable = new WeakMap<object, string>();
export function searchText(item: BankView | BankGroupView, text: string): string {
  let n = searchable.get(item);
  if (n === undefined) {
    n = normalizeForSearch(text);
    searchable.set(item, n);
  }
  return n;
}

export function findBank(groups: readonly BankGroupView[], bankId: string | null | undefined): BankView | undefined {
  if (!bankId) return undefined;
  for (const g of groups) for (const b of g.types) if (b.bankId === bankId) return b;
  return undefined;
}

/** The storage key of the last bank used on this device; the value is a bank id and nothing else. */
export const LAST_BANK_KEY = 'bank-checkout:last-bank';

export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** The device's storage, or null where it is unavailable (privacy modes, sandboxed frames). */
export function deviceStorage(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function recallBank(store: KeyValueStore | null): string | null {
  try {
    return store?.getItem(LAST_BANK_KEY) ?? null;
  } catch {
    return null;
  }
}

export function rememberBank(store: KeyValueStore | null, bankId: string): void {
  try {
    store?.setItem(LAST_BANK_KEY, bankId);
  } catch {
    // Storage full or blocked: remembering is a convenience only.
  }
}
