/**
 * The isolated checkout's messages, as each side reads them: anything that is not exactly one
 * of the protocol's messages, at its version, with values that cannot load or inject anything,
 * is refused (read as null).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { THEME_VARS, isDevelopmentHost, ownEntry, readFrameMessage, readHostMessage } from '../src/frame/messages.js';

const theme = (vars: Record<string, string>, colorScheme = 'light') => ({ vars, colorScheme });

describe('messages from the host (read by the frame)', () => {
  it('takes an init with a launch token, settings and a theme of the kit’s own properties', () => {
    const init = {
      v: 1,
      type: 'init',
      token: 'lt_chk_1.x',
      locale: 'es',
      mode: null,
      pollInterval: 5000,
      theme: theme({ '--bank-color-primary': '#123456', '--bank-radius': '4px' }),
    };
    assert.deepEqual(readHostMessage(init), init);
    assert.deepEqual(readHostMessage({ v: 1, type: 'focus' }), { v: 1, type: 'focus' });
    assert.ok(readHostMessage({ v: 1, type: 'update', locale: 'ca' }));
  });

  it('refuses other versions, types, missing or oversized tokens, and bad settings', () => {
    for (const bad of [
      null,
      'init',
      [],
      { v: 2, type: 'init', token: 'lt_x' },
      { v: '1', type: 'init', token: 'lt_x' },
      { v: 1, type: 'init' },
      { v: 1, type: 'init', token: '' },
      { v: 1, type: 'init', token: 'x'.repeat(513) },
      { v: 1, type: 'eval', code: '1' },
      { v: 1, type: 'update', locale: 7 },
      { v: 1, type: 'update', pollInterval: -1 },
      { v: 1, type: 'update', pollInterval: Infinity },
      { v: 1, type: 'update', locale: 'x'.repeat(36) },
    ]) {
      assert.equal(readHostMessage(bad), null, JSON.stringify(bad));
    }
  });

  it('refuses a theme that names other properties or whose values could load or inject something', () => {
    for (const vars of [
      { color: 'red' } as Record<string, string>,
      { '--other': 'red' },
      { '--bank-color-primary': 'url(https://evil.example/x)' },
      { '--bank-color-primary': 'red; background: url(x)' },
      { '--bank-color-primary': 'image-set("x.png" 1x)' },
      { '--bank-font-family': '@import "x"' },
      { '--bank-color-primary': 'red}body{display:none' },
      { '--bank-color-primary': '\\75rl(x)' },
      { '--bank-color-primary': 'x'.repeat(257) },
    ]) {
      assert.equal(readHostMessage({ v: 1, type: 'update', theme: theme(vars) }), null, JSON.stringify(vars));
    }
    assert.equal(readHostMessage({ v: 1, type: 'update', theme: theme({}, 'dark; x') }), null);
    assert.equal(readHostMessage({ v: 1, type: 'update', theme: { vars: [], colorScheme: 'dark' } }), null);
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.anything(), (x) => {
        readHostMessage(x);
        readFrameMessage(x);
      }),
    );
  });

  it('lists exactly the kit’s documented theme properties', () => {
    assert.ok(THEME_VARS.every((n) => /^--bank-[a-z-]+$/.test(n)));
    assert.ok(THEME_VARS.includes('--bank-color-primary') && THEME_VARS.includes('--bank-max-width'));
  });
});

describe('messages from the frame (read by the host)', () => {
  it('takes ready, size, the kit’s three events and a web address to go to', () => {
    assert.deepEqual(readFrameMessage({ v: 1, type: 'ready', extra: 'dropped' }), { v: 1, type: 'ready' });
    assert.deepEqual(readFrameMessage({ v: 1, type: 'size', height: 640 }), { v: 1, type: 'size', height: 640 });
    assert.ok(readFrameMessage({ v: 1, type: 'event', name: 'bank-checkout-step', detail: { checkoutId: 'chk_1', state: 'login', previous: 'select-bank' } }));
    assert.ok(
      readFrameMessage({ v: 1, type: 'event', name: 'bank-checkout-error', detail: { checkoutId: null, code: 'network', status: 0, requestId: null } }),
    );
    assert.deepEqual(readFrameMessage({ v: 1, type: 'navigate', url: 'https://bank.example/pay?x=1' }), {
      v: 1,
      type: 'navigate',
      url: 'https://bank.example/pay?x=1',
    });
  });

  it('refuses other events, bad details, sizes and addresses that are not the web', () => {
    for (const bad of [
      { v: 1, type: 'event', name: 'click', detail: {} },
      { v: 1, type: 'event', name: 'bank-checkout-complete', detail: { checkoutId: 'chk_1' } },
      { v: 1, type: 'event', name: 'bank-checkout-step', detail: null },
      { v: 1, type: 'size', height: -1 },
      { v: 1, type: 'size', height: Number.NaN },
      { v: 1, type: 'size', height: 1e6 },
      { v: 1, type: 'navigate', url: 'javascript:alert(1)' },
      { v: 1, type: 'navigate', url: 'data:text/html,x' },
      { v: 0, type: 'ready' },
    ]) {
      assert.equal(readFrameMessage(bad), null, JSON.stringify(bad));
    }
  });
});

describe('development hosts (where ignored messages are logged)', () => {
  it('are loopback, localhost and .test names', () => {
    for (const h of ['localhost', '127.0.0.1', '[::1]', 'shop.localhost', 'pay.shop.test']) assert.equal(isDevelopmentHost(h), true, h);
    for (const h of ['shop.example', 'localhost.example.com', '10.0.0.1']) assert.equal(isDevelopmentHost(h), false, h);
  });
});

describe('words by language', () => {
  it('are found by the table’s own keys only: a locale named after an inherited property finds nothing', () => {
    const table = { en: 'en', es: 'es' };
    assert.equal(ownEntry(table, 'es-ES'), 'es');
    assert.equal(ownEntry(table, 'EN'), 'en');
    for (const locale of ['constructor', '__proto__', 'toString', 'hasOwnProperty-x', '', null, undefined])
      assert.equal(ownEntry(table, locale), null, String(locale));
  });
});

describe('the launch token and the refused theme values', () => {
  it('an init carries a launch token, never a client secret', () => {
    assert.equal(readHostMessage({ v: 1, type: 'init', token: 'lt_chk_1.x' })?.type, 'init');
    assert.equal(readHostMessage({ v: 1, type: 'init', secret: 'cs_x' }), null, 'a client secret alone');
    assert.equal(readHostMessage({ v: 1, type: 'init', token: 'lt_chk_1.x', secret: 'cs_x' }), null, 'both');
    assert.equal(readHostMessage({ v: 1, type: 'init', token: 'lt_chk_1.x', secret: null }), null, 'a secret of any value');
    assert.equal(readHostMessage({ v: 1, type: 'init' }), null, 'neither');
    assert.equal(readHostMessage({ v: 1, type: 'init', token: '' }), null);
    assert.equal(readHostMessage({ v: 1, type: 'init', token: 'x'.repeat(513) }), null);
  });

  it('the frame reports the theme values it refused, in a bounded message', () => {
    const items = [{ name: '--bank-color-text', value: 'transparent', reason: 'contrast 1.00:1' }];
    assert.deepEqual(readFrameMessage({ v: 1, type: 'refused', items }), { v: 1, type: 'refused', items });
    assert.equal(readFrameMessage({ v: 1, type: 'refused', items: [{ name: 1 }] }), null);
    assert.equal(readFrameMessage({ v: 1, type: 'refused', items: Array(65).fill(items[0]) }), null);
  });

  it('the frame says it cannot show the checkout, and why, with one of its two reasons only', () => {
    for (const code of ['frame_refused', 'frame_unreachable'])
      assert.deepEqual(readFrameMessage({ v: 1, type: 'failed', code, extra: 'dropped' }), { v: 1, type: 'failed', code });
    for (const code of ['frame_timeout', 'secret_refused', 'network', undefined, 1])
      assert.equal(readFrameMessage({ v: 1, type: 'failed', code }), null, String(code));
  });
});
