/**
 * The isolated checkout written by the shop's server (`@bank-checkout/elements/prerender`): the
 * element with its frame already in a declarative shadow root, hidden until the element runs;
 * every value escaped; nothing that opens the checkout in the frame's address.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isolatedCheckoutHtml } from '../src/prerender/prerender.js';
import { HOST_WORDS } from '../src/frame/host.js';

const TOKEN = 'lt_chk_abc.0123456789abcdef';

describe('isolatedCheckoutHtml', () => {
  it('writes the element with its frame on the BFF, hidden, titled in the checkout’s language, and the token only in the element’s attribute', () => {
    const html = isolatedCheckoutHtml({ id: 'pay', api: 'https://pay.shop.example/', launchToken: TOKEN, locale: 'eu', mode: 'native' });
    assert.equal(
      html,
      `<bank-checkout isolate id="pay" api="https://pay.shop.example/" launch-token="${TOKEN}" locale="eu" mode="native">` +
        '<template shadowrootmode="open" shadowrootdelegatesfocus>' +
        `<iframe part="frame" src="https://pay.shop.example/v1/frame" title="${HOST_WORDS.eu![0]}" referrerpolicy="origin" hidden></iframe>` +
        '</template></bank-checkout>',
    );
    assert.equal(html.split(TOKEN).length, 2, 'the token once: in launch-token');
  });

  it('leaves out what is not given, and titles the frame in English for a language it has no words in', () => {
    const html = isolatedCheckoutHtml({ api: 'https://pay.example', launchToken: TOKEN, locale: 'fr-FR' });
    assert.ok(html.startsWith(`<bank-checkout isolate api="https://pay.example" launch-token="${TOKEN}" locale="fr-FR"><template`));
    assert.ok(html.includes(`title="${HOST_WORDS.en![0]}"`));
    assert.ok(!/ id=| mode=/.test(html));
  });

  it('escapes every value: nothing given can close an attribute or open an element', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (api, token, locale) => {
        const html = isolatedCheckoutHtml({ api, launchToken: token, locale });
        // The given values, each inside its quotes; the markup around them the same whatever they are.
        const given = /( (?:api|launch-token|locale|src|title))="([^"]*)"/g;
        assert.ok(![...html.matchAll(given)].some((m) => /[<>"]/.test(m[2]!)), 'no markup inside a value');
        assert.equal(
          html.replace(given, '$1=""'),
          '<bank-checkout isolate api="" launch-token="" locale=""><template shadowrootmode="open" shadowrootdelegatesfocus><iframe part="frame" src="" title="" referrerpolicy="origin" hidden></iframe></template></bank-checkout>',
        );
      }),
    );
  });
});
