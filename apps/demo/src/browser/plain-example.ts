/**
 * The plain-HTML embedding example: one module script, no framework. It loads the kit, asks
 * the shop's server for a checkout, adds `<bank-checkout isolate>` and logs the element's events.
 * Isolated: the page loads only the thin host; the checkout runs in a frame on the BFF's origin.
 */
import '@bank-checkout/elements/frame';
import { CHECKOUT_EVENTS, createExampleCheckout, type Mode } from './example-api.js';

const pay = document.getElementById('pay') as HTMLButtonElement;
const modeSelect = document.getElementById('example-mode') as HTMLSelectElement;
const slot = document.getElementById('checkout-slot') as HTMLElement;
const events = document.getElementById('events') as HTMLOListElement;

function log(text: string): void {
  const li = document.createElement('li');
  li.textContent = text;
  events.append(li);
}

/** Creates a checkout in the mode chosen and shows it; an error is logged, and the button given back. */
async function start(): Promise<void> {
  pay.disabled = true;
  try {
    const mode = modeSelect.value as Mode;
    const { api, launchToken } = await createExampleCheckout(mode);
    const el = document.createElement('bank-checkout');
    el.setAttribute('isolate', '');
    el.setAttribute('api', api);
    el.setAttribute('launch-token', launchToken);
    el.setAttribute('locale', 'en');
    el.setAttribute('mode', mode);
    for (const type of CHECKOUT_EVENTS) {
      el.addEventListener(type, (e) => log(`${type}: ${JSON.stringify((e as CustomEvent).detail)}`));
    }
    slot.replaceChildren(el);
    pay.hidden = true;
    modeSelect.disabled = true;
  } catch (err) {
    log(`error: ${err instanceof Error ? err.message : String(err)}`);
    pay.disabled = false;
  }
}

pay.addEventListener('click', () => void start());
