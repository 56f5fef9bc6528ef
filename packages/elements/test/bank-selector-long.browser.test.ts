import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BankGroupView } from '@bank-checkout/contract';
import '../src/bank-selector/bank-selector.js';
import type { BankSelector } from '../src/bank-selector/bank-selector.js';
import { AURORA } from './fixtures.js';

/** 500 banks in 10 groups of 50. */
const LONG: BankGroupView[] = Array.from({ length: 10 }, (_, g) => ({
  group: `g${g}`,
  name: `Group ${g}`,
  defaultType: `b${g * 50}`,
  types: Array.from({ length: 50 }, (_, i) => ({
    ...AURORA,
    bankId: `b${g * 50 + i}`,
    label: `Bank ${g * 50 + i} ${g % 2 ? 'Norte' : 'Sur'}`,
    type: 0 as const,
  })),
}));

const options = (el: BankSelector) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role=option]')];
const search = (el: BankSelector) => el.shadowRoot!.querySelector<HTMLInputElement>('#search')!;
const key = (el: BankSelector, k: string) => search(el).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true }));

async function longSelector() {
  return fixture<BankSelector>(html`<bank-selector locale="en" no-remember .storage=${null} .groups=${LONG}></bank-selector>`);
}

describe('<bank-selector> with a long list', () => {
  it('renders a screenful first, each option placed in the whole list', async () => {
    const el = await longSelector();
    const shown = options(el);
    expect(shown.length).to.be.within(10, 60);
    expect(shown[0]!.getAttribute('aria-posinset')).to.equal('1');
    expect(shown.every((o) => o.getAttribute('aria-setsize') === '500')).to.equal(true);
    expect(shown.at(-1)!.getAttribute('aria-posinset')).to.equal(String(shown.length));
    await expect(el).to.be.accessible();
  });

  it('renders further options when the list is scrolled to its end', async () => {
    const el = await longSelector();
    const before = options(el).length;
    const list = el.shadowRoot!.querySelector<HTMLElement>('[role=listbox]')!;
    list.scrollTop = list.scrollHeight;
    // The scroll event a browser fires (a page in a background tab of the test runner may not render).
    list.dispatchEvent(new Event('scroll'));
    await waitUntil(() => options(el).length > before, 'no further options after scrolling');
    expect(options(el).length).to.be.below(500);
  });

  it('moves past the rendered options with the keyboard, and the active option exists', async () => {
    const el = await longSelector();
    const rendered = options(el).length;
    key(el, 'ArrowDown');
    for (let i = 0; i < Math.ceil(rendered / 5) + 2; i++) key(el, 'PageDown');
    await el.updateComplete;
    const active = search(el).getAttribute('aria-activedescendant')!;
    const option = el.shadowRoot!.getElementById(active);
    expect(option, active).to.not.equal(null);
    expect(Number(option!.getAttribute('aria-posinset'))).to.be.above(rendered);
    expect(option!.getAttribute('aria-selected')).to.equal('true');
  });

  it('searches the whole list, not only what is rendered, and says how many match', async () => {
    const el = await longSelector();
    const input = search(el);
    input.value = 'bank 49';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    // "Bank 49 …" and "Bank 490 …" to "Bank 499 …".
    expect(options(el).map((o) => o.textContent.trim().split(' ').slice(0, 2).join(' '))).to.deep.equal([
      'Bank 49',
      ...Array.from({ length: 10 }, (_, i) => `Bank ${490 + i}`),
    ]);
    expect(el.shadowRoot!.querySelector('[role=status]')!.textContent).to.equal('Banks found: 11');
  });

  it('chooses a bank by click from one listener on the list', async () => {
    const el = await longSelector();
    const chosen = oneEvent(el, 'bank-select');
    options(el)[3]!.click();
    expect((await chosen).detail.bankId).to.equal('b3');
  });
});
