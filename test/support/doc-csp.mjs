// The Content-Security-Policy docs/embedding.md gives a page of each mode ("An isolated page",
// "An inline page"): the block under its heading, as it is, naming the BFF
// `https://pay.shop.example`. Tests serve it verbatim (test/e2e/csp.test.ts), and hold the
// starter's to it (packages/create-bank-checkout/test, scripts/install-check.mjs). Plain
// JavaScript, so the install check can load it.
import { readFileSync } from 'node:fs';

/** The BFF's origin as the doc's policies name it. */
export const DOC_BFF = 'https://pay.shop.example';

/**
 * The policy docs/embedding.md gives a page of `kind` (`isolated` or `inline`), with the BFF's
 * origin `bff` named in it when given.
 */
export function docPolicy(kind, bff) {
  const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  const heading = kind === 'isolated' ? '### An isolated page' : '### An inline page';
  const block = doc.includes(heading) ? /```\n([^`]+?)\n```/.exec(doc.slice(doc.indexOf(heading)))?.[1] : undefined;
  if (!block || !block.includes(DOC_BFF)) throw new Error(`docs/embedding.md gives no policy naming ${DOC_BFF} under "${heading}"`);
  return bff ? block.replaceAll(DOC_BFF, new URL(bff).origin) : block;
}
