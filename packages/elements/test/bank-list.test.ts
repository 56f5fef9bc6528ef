import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { firstBanks, listBanks, orderOf, type BankList } from '../src/bank-selector/bank-list.js';
import { filterBanks } from './bank-search.js';
import { AURORA, GROUPS } from './fixtures.js';

const ids = (list: BankList) => list.sections.flatMap((s) => s.banks.map((b) => b.bankId));

/** Groups of banks named from a few syllables, so that searches match some and miss others. */
const SYLLABLES = ['ca', 'ja', 'ru', 'ral', ' ', 'Á', 'á', 'ix', 'de', 'Ñ', 'bank', 'e\u0301', '  '];
const name = fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
const arbGroups: fc.Arbitrary<BankGroupView[]> = fc
  .array(fc.record({ name, banks: fc.array(fc.record({ label: name, type: fc.constantFrom(0 as const, 1 as const) }), { minLength: 1, maxLength: 6 }) }), {
    minLength: 1,
    maxLength: 6,
  })
  .map((gs) =>
    gs.map((g, i) => ({
      group: `g${i}`,
      name: g.name,
      defaultType: `g${i}-0`,
      types: g.banks.map((b, j): BankView => ({ ...AURORA, bankId: `g${i}-${j}`, label: b.label, type: b.type })),
    })),
  );
const query = fc.array(fc.constantFrom(...SYLLABLES, 'c', 'a', 'r'), { maxLength: 4 }).map((p) => p.join(''));

describe('the selector’s bank list', () => {
  it('lists what the search finds, as filterBanks does, in the same order', () => {
    fc.assert(
      fc.property(arbGroups, query, fc.constantFrom(0 as const, 1 as const), (groups, q, type) => {
        const reference = filterBanks(groups, q, asks(groups) ? type : null).flatMap((m) => m.banks.map((b) => b.bankId));
        const list = listBanks(groups, q, type, null);
        assert.deepEqual(ids(list), reference);
        assert.equal(list.total, reference.length);
      }),
    );
  });

  it('narrows the previous result when the search only grew, with the same result as a search from scratch', () => {
    fc.assert(
      fc.property(arbGroups, query, query, (groups, a, more) => {
        const first = listBanks(groups, a, 0, null);
        const narrowed = listBanks(groups, a + more, 0, null, first);
        assert.deepEqual(ids(narrowed), ids(listBanks(groups, a + more, 0, null)));
        assert.deepEqual(ids(listBanks(groups, a, 0, null, narrowed)), ids(first), 'a shorter search looks at every bank again');
      }),
    );
  });

  it('lists the bank last used first when not searching, and only under its person type', () => {
    assert.deepEqual(ids(listBanks(GROUPS, '', 0, 'galicia')), ['galicia', 'aurora', 'norte']);
    assert.equal(listBanks(GROUPS, '', 0, 'galicia').sections[0]!.group, -1);
    assert.deepEqual(ids(listBanks(GROUPS, '', 1, 'galicia')), ['aurora-empresas'], 'not a bank of the other person type');
    assert.deepEqual(ids(listBanks(GROUPS, 'caixa', 0, 'galicia')), ['galicia'], 'searching: in its group');
    assert.equal(listBanks(GROUPS, 'caixa', 0, 'galicia').sections[0]!.group, 1);
    assert.equal(listBanks(GROUPS, '', 0, null).personType, true);
    assert.equal(listBanks(GROUPS.slice(1), '', 0, null).personType, false);
  });

  it('orders the banks as listed, each section placed in the whole list, and cuts the first ones section by section', () => {
    fc.assert(
      fc.property(arbGroups, query, fc.nat(40), (groups, q, limit) => {
        const list = listBanks(groups, q, 0, null);
        const all = ids(list);
        assert.deepEqual(
          orderOf(list).map((b) => b.bankId),
          all,
        );
        assert.equal(orderOf(list), orderOf(list), 'worked out once');
        for (const s of list.sections) assert.equal(all[s.start], s.banks[0]!.bankId);
        const first = firstBanks(list, limit);
        assert.deepEqual(
          first.flatMap((s) => s.banks.map((b) => b.bankId)),
          all.slice(0, limit),
        );
        assert.ok(first.every((s) => s.banks.length > 0));
      }),
    );
  });
});

function asks(groups: BankGroupView[]): boolean {
  return groups.some((g) => g.types.some((b) => b.type === 0) && g.types.some((b) => b.type === 1));
}
