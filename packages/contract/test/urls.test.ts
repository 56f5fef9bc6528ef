import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { isWebUrl, safeHref } from '@bank-checkout/contract';

const GOOD = [
  'https://gateway.example/pay?sig=abc&x=1',
  'http://127.0.0.1:4010/gateway/san/pay/1',
  'HTTP://gateway.example',
  'HtTpS://shop.example/ok#done',
  'https://shop.example:8443/',
];

const BAD = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(1)',
  'java\nscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'blob:https://shop.example/1',
  'file:///etc/passwd',
  'ftp://files.example/x',
  'mailto:payer@example.com',
  '//gateway.example/pay',
  '/result?checkout=1',
  'result',
  '#top',
  '',
  'https://',
  'https:///path-only',
  'https:gateway.example',
  'https:/gateway.example',
  ' https://gateway.example',
  'https://gateway.example\r\nSet-Cookie: x=1',
  'https://gateway.example/\npath',
  'https://gateway.example/a\tb',
  'https://gate way.example',
  'https://gateway.example/\u0000',
  'https://gateway.example/\u2028',
  'https://[::1',
];

describe('web addresses', () => {
  it('accepts absolute http and https addresses, whatever the case of the scheme', () => {
    for (const url of GOOD) assert.equal(isWebUrl(url), true, url);
  });

  it('refuses other schemes, relative and protocol-relative addresses, and hidden control characters', () => {
    for (const url of BAD) assert.equal(isWebUrl(url), false, JSON.stringify(url));
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, {}, ['https://a.example'], new URL('https://a.example')]) assert.equal(isWebUrl(value), false, inspect(value));
  });

  it('refuses an address too long to be a link', () => {
    assert.equal(isWebUrl(`https://a.example/${'x'.repeat(5000)}`), false);
  });

  it('gives an href: the address itself when it is a web address, the fallback otherwise', () => {
    for (const url of GOOD) assert.equal(safeHref(url), url);
    for (const url of BAD) assert.equal(safeHref(url), '#', JSON.stringify(url));
    assert.equal(safeHref('javascript:alert(1)', 'about:blank'), 'about:blank');
    assert.equal(safeHref(undefined), '#');
  });
});
