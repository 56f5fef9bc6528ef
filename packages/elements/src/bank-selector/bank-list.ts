/**
 * The bank list as `<bank-selector>` shows it, worked out once per change of what is listed
 * (the groups, the search, the person type, the bank last used), never per render: moving
 * through the list, scrolling and rendering more cost nothing that grows with the list. A
 * search that only grew looks among the previous result's banks, and the names as searched are
 * worked out once per bank (`searchText`).
 */
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { banksFor, needsPersonType, searchText, type PersonType } from '../logic/banks.js';
import { normalizeForSearch } from '../logic/format.js';

export interface ListSection {
  /** The group's index in the groups, or -1 for the bank last used. */
  group: number;
  banks: readonly BankView[];
  /** Place of its first bank in the whole list (0-based). */
  start: number;
}

export interface BankList {
  /** The groups listed from. */
  groups: readonly BankGroupView[];
  /** Whether the payer is asked the person type (some group has banks of both). */
  personType: boolean;
  /** The search as matched (normalised). */
  query: string;
  sections: ListSection[];
  total: number;
  /** The banks in order, made on first use (keyboard). */
  order?: readonly BankView[];
}

/**
 * The list for a search, a person type and the bank last used: the recent bank first (when not
 * searching), then each group's banks. A search looks in the bank's label and the group's name,
 * ignoring accents and case, under either person type. `previous` is the list shown before.
 */
export function listBanks(
  groups: readonly BankGroupView[],
  search: string,
  personType: PersonType,
  recentId: string | null,
  previous?: BankList | null,
): BankList {
  const query = normalizeForSearch(search);
  const same = previous?.groups === groups;
  const asks = same ? previous.personType : needsPersonType(groups);
  const sections: ListSection[] = [];
  let total = 0;
  const add = (group: number, banks: readonly BankView[]) => {
    if (banks.length) sections.push({ group, banks, start: (total += banks.length) - banks.length });
  };
  if (query) {
    // A search that only grew finds nothing the previous one did not.
    const from = same && previous.query && query.startsWith(previous.query) ? previous.sections : groups.map((g, i) => ({ group: i, banks: g.types }));
    for (const { group, banks } of from) {
      add(group, searchText(groups[group]!, groups[group]!.name).includes(query) ? banks : banks.filter((b) => searchText(b, b.label).includes(query)));
    }
  } else {
    const banks = groups.map((g) => banksFor(g, asks ? personType : null));
    const recent = banks.flat().find((b) => b.bankId === recentId);
    if (recent) add(-1, [recent]);
    banks.forEach((b, i) => add(i, recent ? b.filter((x) => x !== recent) : b));
  }
  return { groups, personType: asks, query, sections, total };
}

/** The banks in order, worked out once per list. */
export const orderOf = (list: BankList): readonly BankView[] => (list.order ??= list.sections.flatMap((s) => s.banks));

/** The first `limit` banks, section by section. */
export function firstBanks(list: BankList, limit: number): ListSection[] {
  return list.sections.filter((s) => s.start < limit).map((s) => (s.start + s.banks.length > limit ? { ...s, banks: s.banks.slice(0, limit - s.start) } : s));
}
