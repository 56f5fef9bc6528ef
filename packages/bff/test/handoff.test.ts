/**
 * From the desktop to the phone: a single-use, short-lived link whose page (in the payer's
 * language) spends nothing when opened, previewed or asked with HEAD; its button's POST is
 * answered once with a redirect to the checkout's bank page; a used or expired link gets a page
 * that says what to do, and the desktop's view says it was used or expired. It opens nothing else.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, view, BFF_HOST, type Harness } from './harness.js';
import { HANDOFF_TTL_MS } from '../src/checkout/handoff.js';

describe('hand-off to the phone', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  const atBank = async () => {
    const c = await h.createCheckout();
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.ok(v.step.state === 'redirect');
    return { ...c, bankUrl: v.step.url };
  };
  const link = async (secret: string, body: object = {}) => {
    const res = await h.checkout(secret, '/v1/checkout/handoff', body);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { url: string; expiresAt: string };
  };
  /** Opening the link, as a phone, a preview or a HEAD does: its page. */
  const open = (url: string, init: RequestInit = {}) => h.bff.request(url, { redirect: 'manual', ...init });
  /** Its page's button. */
  const spend = (url: string) => h.bff.request(url, { method: 'POST', redirect: 'manual' });
  const handoffState = async (secret: string) => {
    const v = await view(await h.checkout(secret, '/v1/checkout'));
    return v.step.state === 'redirect' ? v.step.handoff?.state : v.state;
  };

  it("shows a page that spends nothing (GET, HEAD, a preview), then answers its button once with the checkout's bank page; never logged", async () => {
    const c = await atBank();
    const l = await link(c.clientSecret);
    assert.ok(l.url.startsWith(`${BFF_HOST}/v1/handoff/${c.id}.`), l.url);
    assert.ok(!l.url.includes(c.clientSecret));
    assert.equal(Date.parse(l.expiresAt), h.clock.now + HANDOFF_TTL_MS);
    assert.equal(await handoffState(c.clientSecret), 'open');

    for (const init of [{}, { method: 'HEAD' }, { headers: { 'User-Agent': 'Slackbot-LinkExpanding 1.0', Accept: 'text/html' } }, {}]) {
      const res = await open(l.url, init);
      assert.equal(res.status, 200, `${JSON.stringify(init)}: ${res.status}`);
      assert.equal(res.headers.get('Cache-Control'), 'no-store');
      assert.match(
        res.headers.get('Content-Security-Policy') ?? '',
        /default-src 'none'.*form-action 'self' http:\/\/127\.0\.0\.1:\d+|default-src 'none'.*form-action 'self' https?:\/\/[^;]+/,
      );
      if (init.method === 'HEAD') continue;
      const page = await res.text();
      assert.match(page, /<form method="post"><button type="submit">Continue to my bank<\/button><\/form>/);
      assert.ok(!page.includes(c.bankUrl), 'the bank’s page is not in it: only the button leads there');
      assert.match(page, /€42\.50/);
    }
    assert.equal(await handoffState(c.clientSecret), 'open', 'opening it spent nothing');

    const first = await spend(l.url);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('Location'), c.bankUrl);
    assert.equal(first.headers.get('Cache-Control'), 'no-store');
    assert.equal(await handoffState(c.clientSecret), 'used', 'the desktop learns it was used');

    for (const again of [() => spend(l.url), () => open(l.url)]) {
      const res = await again();
      assert.equal(res.status, 410);
      assert.match(res.headers.get('Content-Type') ?? '', /^text\/html/);
      const page = await res.text();
      assert.match(page, /<h1>This link was already used<\/h1>/);
      assert.match(page, /show a new code on the page where you started/);
      assert.ok(!page.includes('<form'));
    }
    const token = l.url.split('/').at(-1)!;
    assert.ok(!h.logs.some((line) => line.includes(token.split('.')[1]!)), 'the token is in no log line');
    // The checkout itself goes on: the desktop still reads it.
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect');
  });

  it('speaks the language the checkout asked for, else the phone’s', async () => {
    const c = await atBank();
    const gl = await link(c.clientSecret, { locale: 'gl' });
    const page = await (await open(gl.url, { headers: { 'Accept-Language': 'en-GB,en;q=0.9' } })).text();
    assert.match(page, /<html lang="gl">/);
    assert.match(page, /<h1>Continúa no teu banco<\/h1>/);
    assert.match(page, /42,50\s€/);
    const phone = await link(c.clientSecret);
    assert.match(
      await (await open(phone.url, { headers: { 'Accept-Language': 'fr-FR,eu;q=0.8,es;q=0.5' } })).text(),
      /<html lang="eu">.*<h1>Jarraitu zure bankuan<\/h1>/s,
    );
    assert.match(await (await open(phone.url, { headers: { 'Accept-Language': 'de' } })).text(), /<html lang="en">/);
    const bad = await h.checkout(c.clientSecret, '/v1/checkout/handoff', { locale: 'fr' });
    assert.equal(bad.status, 422);
  });

  it('opens nothing of the checkout API', async () => {
    const c = await atBank();
    const l = await link(c.clientSecret);
    const token = l.url.split('/').at(-1)!;
    for (const secret of [token, token.split('.')[1]!]) assert.equal((await h.checkout(secret, '/v1/checkout')).status, 401);
  });

  it('expires, is replaced by a newer link, and refuses what is not a link', async () => {
    const c = await atBank();
    const old = await link(c.clientSecret);
    const fresh = await link(c.clientSecret);
    assert.equal((await spend(old.url)).status, 404, 'a newer link replaces the old one');
    assert.match(await (await open(old.url)).text(), /<h1>This link does not work<\/h1>/);
    h.clock.advance(HANDOFF_TTL_MS + 1);
    assert.equal(await handoffState(c.clientSecret), 'expired', 'the desktop learns it expired');
    for (const res of [await open(fresh.url), await spend(fresh.url)]) {
      assert.equal(res.status, 410);
      assert.match(await res.text(), /<h1>This link has expired<\/h1>/);
    }
    for (const bad of ['x', `${c.id}.short`, `${c.id}.${'A'.repeat(32)}`, `chk_${'a'.repeat(22)}.${'A'.repeat(32)}`, '%00']) {
      for (const res of [await open(`${BFF_HOST}/v1/handoff/${bad}`), await spend(`${BFF_HOST}/v1/handoff/${bad}`)]) {
        assert.equal(res.status, 404, bad);
        assert.match(await res.text(), /<h1>This link does not work<\/h1>/);
      }
    }
  });

  it('exists only while the checkout waits at the bank, and ends when the checkout moves on', async () => {
    const c = await h.createCheckout();
    const res = await h.checkout(c.clientSecret, '/v1/checkout/handoff', {});
    assert.equal(res.status, 409);
    const b = await atBank();
    const l = await link(b.clientSecret);
    await view(await h.checkout(b.clientSecret, '/v1/checkout/cancel', {}));
    assert.equal((await open(l.url)).status, 410);
    assert.equal((await spend(l.url)).status, 410);
  });
});
