/**
 * The React embedding example: a component that renders `<bank-checkout>` (React 19 passes
 * props to custom elements) and subscribes to its DOM events through a ref. Written with
 * `createElement` so it needs no JSX step; with JSX it reads
 * `<bank-checkout ref={ref} isolate api={api} launch-token={launchToken} />`. Isolated: the page
 * loads only the thin host; the checkout runs in a frame on the BFF's origin, which alone redeems
 * the launch token.
 */
import { createElement as h, StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '@bank-checkout/elements/frame';
import type { CheckoutCompleteDetail } from '@bank-checkout/elements';
import { CHECKOUT_EVENTS, createExampleCheckout, formatEuros, type ExampleCheckout, type Mode } from './example-api.js';

interface CheckoutProps {
  api: string;
  launchToken: string;
  mode: Mode;
  onEvent: (type: string, detail: unknown) => void;
}

/** `<bank-checkout>` as a React component: attributes in, events out. */
function BankCheckout({ api, launchToken, mode, onEvent }: CheckoutProps) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const listener = (e: Event) => onEvent(e.type, (e as CustomEvent).detail);
    for (const type of CHECKOUT_EVENTS) el.addEventListener(type, listener);
    return () => {
      for (const type of CHECKOUT_EVENTS) el.removeEventListener(type, listener);
    };
  }, [onEvent]);
  return h('bank-checkout', { ref, isolate: true, api, 'launch-token': launchToken, mode, locale: 'en' });
}

function App({ amount }: { amount: number }) {
  const [mode, setMode] = useState<Mode>('native');
  const [checkout, setCheckout] = useState<ExampleCheckout | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<CheckoutCompleteDetail | null>(null);

  const start = async () => {
    setBusy(true);
    setError('');
    try {
      setCheckout(await createExampleCheckout(mode));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  // Stable across renders, so the element's listeners are added once.
  const [onEvent] = useState(() => (type: string, detail: unknown) => {
    setEvents((list) => [...list, `${type}: ${JSON.stringify(detail)}`]);
    if (type === 'bank-checkout-complete') setOutcome(detail as CheckoutCompleteDetail);
  });

  return h(
    'div',
    { className: 'react-example' },
    checkout
      ? h(BankCheckout, { api: checkout.api, launchToken: checkout.launchToken, mode: checkout.mode, onEvent })
      : h(
          'div',
          { className: 'start' },
          h('label', { htmlFor: 'react-mode' }, 'Pay '),
          h(
            'select',
            { id: 'react-mode', value: mode, onChange: (e: { target: { value: string } }) => setMode(e.target.value as Mode) },
            h('option', { value: 'native' }, 'in this page'),
            h('option', { value: 'redirect' }, "at my bank's page"),
            h('option', { value: 'periodic' }, 'as a periodic payment'),
          ),
          ' ',
          h('button', { type: 'button', className: 'primary', id: 'pay', disabled: busy, onClick: () => void start() }, `Pay ${formatEuros(amount)} by bank`),
        ),
    error ? h('p', { role: 'alert', className: 'flash error' }, error) : null,
    h('p', { role: 'status', id: 'react-outcome' }, outcome ? `React saw the payment end: ${outcome.outcome}.` : ''),
    h('h2', null, 'Events'),
    h(
      'ol',
      { className: 'events', id: 'events' },
      events.map((e, i) => h('li', { key: i }, e)),
    ),
  );
}

const root = document.getElementById('root')!;
createRoot(root).render(h(StrictMode, null, h(App, { amount: Number(root.dataset.amount) })));
