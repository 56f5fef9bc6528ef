import { expect } from '@open-wc/testing';
import type { CSSResult } from 'lit';
import { minifyCss } from '../../../scripts/css-minify.js';
import { theme, controls } from '../src/shared/styles.js';
import { accountPickerStyles } from '../src/bank-account-picker/bank-account-picker.styles.js';
import { challengeStyles } from '../src/bank-challenge/bank-challenge.styles.js';
import { contractPickerStyles } from '../src/bank-contract-picker/bank-contract-picker.styles.js';
import { checkoutStyles } from '../src/bank-checkout/bank-checkout.styles.js';
import { loginFormStyles } from '../src/bank-login-form/bank-login-form.styles.js';
import { periodicFormStyles } from '../src/bank-periodic-form/bank-periodic-form.styles.js';
import { resultStyles } from '../src/bank-result/bank-result.styles.js';
import { secondLoginStyles } from '../src/bank-second-login/bank-second-login.styles.js';
import { selectorStyles } from '../src/bank-selector/bank-selector.styles.js';

/** The rules Chromium reads from a stylesheet, as it serialises them. */
function rules(text: string): string[] {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  // Chromium keeps a custom property's value as written, so `var(--a, #fff)` and `var(--a,#fff)`
  // serialise apart though they mean the same: spaces after commas are not compared.
  return [...sheet.cssRules].map((r) => r.cssText.replace(/,\s+/g, ','));
}

const STYLES: Record<string, CSSResult> = {
  theme,
  controls,
  accountPickerStyles,
  challengeStyles,
  contractPickerStyles,
  checkoutStyles,
  loginFormStyles,
  periodicFormStyles,
  resultStyles,
  secondLoginStyles,
  selectorStyles,
};

describe('CSS minification of the build', () => {
  for (const [name, styles] of Object.entries(STYLES)) {
    it(`${name}: the minified sheet has the same rules, and is smaller`, () => {
      const source = styles.cssText;
      const minified = minifyCss(source);
      expect(rules(minified)).to.deep.equal(rules(source));
      if (source.trim()) expect(minified.length).to.be.below(source.length);
    });
  }

  it('keeps strings, descendant pseudo-classes and calc() spacing, and drops comments', () => {
    const source = `/* the payer's bank */ a :focus , b > c { content: '· /* kept */ '; margin: calc(1px + 2px); }`;
    const minified = minifyCss(source);
    expect(minified).to.equal(`a :focus,b>c{content:'· /* kept */ ';margin:calc(1px + 2px)}`);
    expect(rules(minified)).to.deep.equal(rules(source));
  });
});
