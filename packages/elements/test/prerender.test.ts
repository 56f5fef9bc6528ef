/**
 * The isolated checkout written by the shop's server (`@bank-checkout/elements/prerender`): the
 * element with its frame already in a declarative shadow root, hidden until the element runs;
 * every value escaped; the launch token in the frame's `name` (its first script reads and clears
 * it), never in its address; the address says the bank list is the first screen only for a
 * checkout that opens on it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isolatedCheckoutHtml } from '../src/prerender/prerender.js';
import { HOST_WORDS } from '../src/frame/host.js';

const TOKEN = 'lt_chk_abc.0123456789abcdef';

describe('isolatedCheckoutHtml', () => {
  it('writes the element with its frame on the BFF, hidden, titled in the checkout’s language, and the token in the element’s attribute and the frame’s name only', () => {
    const html = isolatedCheckoutHtml({ id: 'pay', api: 'https://pay.shop.example/', launchToken: TOKEN, locale: 'eu', mode: 'native' });
    assert.equal(
      html,
      `<bank-checkout isolate id="pay" api="https://pay.shop.example/" launch-token="${TOKEN}" locale="eu" mode="native">` +
        '<template shadowrootmode="open" shadowrootdelegatesfocus>' +
        `<iframe part="frame" src="https://pay.shop.example/v1/frame" name="${TOKEN}" title="${HOST_WORDS.eu![0]}" referrerpolicy="origin" hidden></iframe>` +
        '</template></bank-checkout>',
    );
    assert.equal(html.split(TOKEN).length, 3, 'the token twice: in launch-token and in the frame’s name');
  });

  it('addresses the frame’s page with its bank list for a checkout that opens on it, and only then', () => {
    const src = (o: Partial<Parameters<typeof isolatedCheckoutHtml>[0]>) =>
      /src="([^"]*)"/.exec(isolatedCheckoutHtml({ api: 'https://pay.example', launchToken: TOKEN, locale: 'es', ...o }))![1]!.replaceAll('&#38;', '&');
    // At the bank list, native alone (the shop's page asking for it or not).
    assert.equal(src({ state: 'select-bank', modes: ['native'] }), 'https://pay.example/v1/frame?state=select-bank&lang=es');
    assert.equal(src({ state: 'select-bank', modes: ['native'], mode: 'native', locale: 'es-ES' }), 'https://pay.example/v1/frame?state=select-bank&lang=es');
    // Other ways to pay too, the page asking for native: one line says it above the list.
    assert.equal(
      src({ state: 'select-bank', modes: ['native', 'redirect'], mode: 'native' }),
      'https://pay.example/v1/frame?state=select-bank&lang=es&mode=native',
    );
    // Anything else waits for the redemption: a checkout under way, the choice of ways to pay, another way, no state or modes known, no language given or one the kit does not speak.
    for (const o of [
      { state: 'login', modes: ['native'] },
      { state: 'select-account', modes: ['native'] },
      { state: 'select-bank', modes: ['native', 'redirect'] },
      { state: 'select-bank', modes: ['native', 'redirect'], mode: 'redirect' },
      { state: 'select-bank', modes: ['redirect'] },
      { state: 'periodic', modes: ['periodic', 'native'] },
      { state: 'select-bank' },
      { modes: ['native'] },
      { state: 'select-bank', modes: ['native'], locale: undefined },
      { state: 'select-bank', modes: ['native'], locale: 'fr' },
    ])
      assert.equal(src(o), 'https://pay.example/v1/frame', JSON.stringify(o));
    assert.ok(!src({ state: 'select-bank', modes: ['native'] }).includes(TOKEN), 'never the token in the address');
  });

  it('leaves out what is not given, and titles the frame in English for a language it has no words in', () => {
    const html = isolatedCheckoutHtml({ api: 'https://pay.example', launchToken: TOKEN, locale: 'fr-FR' });
    assert.ok(html.startsWith(`<bank-checkout isolate api="https://pay.example" launch-token="${TOKEN}" locale="fr-FR"><template`));
    assert.ok(html.includes(`title="${HOST_WORDS.en![0]}"`));
    assert.ok(!/ id=| mode=/.test(html));
  });

  it('refuses an api that is not the BFF’s https:// address, with an error that says so', () => {
    for (const api of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://pay.shop.example',
      'ftp://pay.example',
      'pay.shop.example',
      '',
      ' ',
    ]) {
      assert.throws(
        () => isolatedCheckoutHtml({ api, launchToken: TOKEN }),
        { name: 'TypeError', message: /^isolatedCheckoutHtml: api must be the BFF's https:\/\/ address/ },
        api,
      );
    }
    assert.throws(() => isolatedCheckoutHtml({ api: 'https://user:pw@pay.example', launchToken: TOKEN }), /no user, password, query or fragment/);
    assert.throws(() => isolatedCheckoutHtml({ api: 'https://pay.example/?next=x', launchToken: TOKEN }), /no user, password, query or fragment/);
    assert.throws(() => isolatedCheckoutHtml({ api: 'http://localhost.evil.example', launchToken: TOKEN }), /for this machine only/);
    // Development: http:// on this machine.
    for (const api of ['http://localhost:4020', 'http://127.0.0.1:4020/pay/', 'http://[::1]:4020', 'http://shop.localhost'])
      assert.ok(isolatedCheckoutHtml({ api, launchToken: TOKEN }).includes(` src="${api.replace(/\/+$/, '')}/v1/frame"`), api);
  });

  it('finds the title by the words’ own languages only: a locale such as constructor is English', () => {
    for (const locale of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf-ES']) {
      assert.ok(isolatedCheckoutHtml({ api: 'https://pay.example', launchToken: TOKEN, locale }).includes(`title="${HOST_WORDS.en![0]}"`), locale);
    }
    assert.ok(isolatedCheckoutHtml({ api: 'https://pay.example', launchToken: TOKEN, locale: 'ES-es' }).includes(`title="${HOST_WORDS.es![0]}"`));
  });

  /** Inputs as a careless or hostile caller may pass them: any text, names of Object's own, markup, other schemes. */
  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('constructor', '__proto__', 'toString', '"><script>alert(1)</script>', "' onload='alert(1)", '</template><script>x</script>', '&quot;'),
  );
  const anyApi = fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.webUrl().map((u) => u.replace(/^https?:/, 'https:')),
    fc.constantFrom(
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'http://127.0.0.1:4020',
      'http://localhost',
      'https://pay.example/"><script>',
    ),
    anyText,
  );
  /** The oracle: the addresses a frame may load from (an https:// address, http:// on loopback), and the frame's address there. */
  const expectedSrc = (api: string): string | null => {
    if (!URL.canParse(api)) return null;
    const u = new URL(api);
    const local = /^(localhost|127(\.\d+){3}|\[::1\])$|\.localhost$/.test(u.hostname);
    if (!(u.protocol === 'https:' || (u.protocol === 'http:' && local)) || u.username || u.password || u.search || u.hash) return null;
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}/v1/frame`;
  };
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

  it('writes the same markup whatever it is given: every value escaped and read back as given, the frame only on an https:// address (property)', () => {
    fc.assert(
      fc.property(
        anyApi,
        anyText,
        fc.option(anyText, { nil: undefined }),
        fc.option(anyText, { nil: undefined }),
        fc.option(anyText, { nil: undefined }),
        (api, token, locale, mode, id) => {
          const src = expectedSrc(api);
          if (src === null) {
            assert.throws(() => isolatedCheckoutHtml({ api, launchToken: token, locale, mode, id }), TypeError);
            return;
          }
          const html = isolatedCheckoutHtml({ api, launchToken: token, locale, mode, id });
          // The given values, each inside its quotes; the markup around them the same whatever they are.
          const given = /( (?:id|api|launch-token|locale|mode|part|src|name|title|referrerpolicy))="([^"]*)"/g;
          const values = new Map([...html.matchAll(given)].map((m) => [m[1]!.trim(), m[2]!]));
          assert.ok(![...values.values()].some((v) => /[<>"']/.test(v)), 'no markup inside a value');
          const optional = (name: string, v: string | undefined) => (v === undefined ? '' : ` ${name}=""`);
          assert.equal(
            html.replace(given, '$1=""'),
            `<bank-checkout isolate${optional('id', id)} api="" launch-token=""${optional('locale', locale)}${optional('mode', mode)}>` +
              '<template shadowrootmode="open" shadowrootdelegatesfocus><iframe part="" src="" name="" title="" referrerpolicy="" hidden></iframe></template></bank-checkout>',
          );
          // Read back, each value is what was given; the frame's address is the BFF's, over https (or loopback http).
          assert.equal(unescape(values.get('api')!), api);
          assert.equal(unescape(values.get('launch-token')!), token);
          assert.equal(unescape(values.get('name')!), token, 'the token in the frame’s name too');
          if (locale !== undefined) assert.equal(unescape(values.get('locale')!), locale);
          assert.equal(unescape(values.get('src')!), src);
          assert.equal(values.get('referrerpolicy'), 'origin');
          assert.ok(Object.values(HOST_WORDS).some(([title]) => unescape(values.get('title')!) === title));
        },
      ),
    );
  });
});
