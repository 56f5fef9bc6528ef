/**
 * The floor the isolated checkout's frame holds the host's theme to: what it refuses (and why),
 * what it applies, and the colour and length readings it rests on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contrastRatio, DEFAULT_COLORS, parseColor, parseLength, themeFloor } from '../src/frame/theme-floor.js';

const refusedNames = (vars: Record<string, string>, dark = false) =>
  themeFloor(vars, { dark })
    .refused.map((r) => r.name)
    .sort();

describe('the theme floor', () => {
  it("accepts the kit's own colours, light and dark, and a readable custom theme", () => {
    for (const scheme of ['light', 'dark'] as const) assert.deepEqual(themeFloor(DEFAULT_COLORS[scheme], { dark: scheme === 'dark' }).refused, [], scheme);
    const theme = {
      '--bank-color-primary': '#1f4f8f',
      '--bank-color-on-primary': '#ffffff',
      '--bank-radius': '8px',
      '--bank-font-size': '1.125rem',
      '--bank-max-width': '40rem',
      '--bank-font-family': "'Inter', system-ui, sans-serif",
    };
    assert.deepEqual(themeFloor(theme, { dark: false }), { accepted: theme, refused: [] });
  });

  it('refuses transparent, faint or hidden text, amount, payee and button labels', () => {
    assert.deepEqual(refusedNames({ '--bank-color-text': 'transparent' }), ['--bank-color-text']);
    assert.deepEqual(refusedNames({ '--bank-color-text': 'rgba(26, 28, 32, 0.2)' }), ['--bank-color-text']);
    assert.deepEqual(refusedNames({ '--bank-color-text': '#fefefe' }), ['--bank-color-text'], 'white on white');
    assert.deepEqual(refusedNames({ '--bank-color-muted': '#aaaaaa' }), ['--bank-color-muted'], '2.3:1');
    assert.deepEqual(refusedNames({ '--bank-color-on-primary': '#0b57d0' }), ['--bank-color-on-primary'], 'a button label the colour of its button');
    assert.deepEqual(refusedNames({ '--bank-color-primary': '#ffffff' }), ['--bank-color-primary'], 'links and outlined buttons on the background');
    assert.deepEqual(refusedNames({ '--bank-color-text': 'hsl(0 0% 100% / 0)' }), ['--bank-color-text']);
    const refusal = themeFloor({ '--bank-color-text': 'transparent' }, { dark: false }).refused[0]!;
    assert.match(refusal.reason, /contrast 1\.00:1 .* at least 4\.5:1/);
  });

  it('keeps the background opaque, and refuses a background that fades what is on it', () => {
    assert.deepEqual(refusedNames({ '--bank-color-background': 'transparent' }), ['--bank-color-background']);
    assert.deepEqual(refusedNames({ '--bank-color-background': 'rgba(255,255,255,0.5)' }), ['--bank-color-background']);
    assert.deepEqual(refusedNames({ '--bank-color-surface': '#00000080' }), ['--bank-color-surface']);
    // The text stays the kit's dark one: a black background would hide it.
    assert.deepEqual(refusedNames({ '--bank-color-background': '#000000' }), ['--bank-color-background']);
    // With a light text of its own, a dark background passes.
    assert.deepEqual(
      refusedNames({
        '--bank-color-background': '#000000',
        '--bank-color-text': '#ffffff',
        '--bank-color-muted': '#cccccc',
        '--bank-color-primary': '#8ab4f8',
        '--bank-color-error': '#f28b82',
        '--bank-color-success': '#81c995',
        '--bank-color-focus': '#8ab4f8',
        '--bank-color-surface': '#202124',
        '--bank-color-on-primary': '#062e6f',
      }),
      [],
    );
    // Both host colours of a failing pair: the foreground goes first, then the background if still needed.
    assert.deepEqual(refusedNames({ '--bank-color-background': '#111111', '--bank-color-text': '#121212' }), ['--bank-color-background', '--bank-color-text']);
  });

  it('keeps the font readable and the layout in view', () => {
    for (const size of ['0px', '0', '4px', '0.5rem', '50%', '40px', '3em'])
      assert.deepEqual(refusedNames({ '--bank-font-size': size }), ['--bank-font-size'], size);
    for (const size of ['12px', '1rem', '100%', '14pt', '2em']) assert.deepEqual(refusedNames({ '--bank-font-size': size }), [], size);
    for (const width of ['0', '10px', '20%']) assert.deepEqual(refusedNames({ '--bank-max-width': width }), ['--bank-max-width'], width);
    assert.deepEqual(refusedNames({ '--bank-max-width': 'none' }), []);
    assert.deepEqual(refusedNames({ '--bank-padding': '2000px' }), ['--bank-padding']);
    assert.deepEqual(refusedNames({ '--bank-padding': '8px 16px' }), []);
    assert.deepEqual(refusedNames({ '--bank-spacing': '-50px' }), ['--bank-spacing']);
  });

  it('refuses what it cannot check: var(), calc(), CSS-wide keywords, hidden, unknown colours', () => {
    for (const [name, value] of [
      ['--bank-color-text', 'var(--x)'],
      ['--bank-font-size', 'calc(1px * 0)'],
      ['--bank-color-text', 'inherit'],
      ['--bank-font-size', 'initial'],
      ['--bank-max-width', 'clamp(0px, 1px, 2px)'],
      ['--bank-color-text', 'color-mix(in srgb, red 0%, transparent)'],
      ['--bank-font-family', 'hidden'],
      ['--bank-color-text', 'notacolour'],
      ['--bank-color-text', 'currentcolor'],
      ['--bank-font-size', '16px !important'],
    ])
      assert.deepEqual(refusedNames({ [name!]: value! }), [name], `${name}: ${value}`);
  });

  it('refuses opacity, filters and transforms, and fonts that draw symbols instead of the amount and the payee', () => {
    for (const [name, value] of [
      ['--bank-color-text', 'opacity(0.1)'],
      ['--bank-font-family', 'opacity'],
      ['--bank-color-primary', 'blur(4px)'],
      ['--bank-color-text', 'drop-shadow(0 0 0 red)'],
      ['--bank-color-background', 'invert(1)'],
      ['--bank-max-width', 'scale(0.1)'],
      ['--bank-padding', 'translateX(-9999px)'],
      ['--bank-radius', 'rotate(180deg)'],
      ['--bank-spacing', 'matrix3d(1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1)'],
      ['--bank-color-muted', 'Hue-Rotate (90deg)'],
    ])
      assert.deepEqual(refusedNames({ [name!]: value! }), [name], `${name}: ${value}`);
    for (const fonts of [
      'Wingdings, sans-serif',
      "'Wingdings 3'",
      'Webdings',
      'Symbol',
      '"Zapf Dingbats", serif',
      'ITC Zapf Dingbats',
      'Marlett',
      'Segoe MDL2 Assets',
      'Material Icons',
      'Font Awesome 6 Free',
      'Noto Color Emoji, sans-serif',
      'Redacted Script',
      'Flow Block',
    ]) {
      const { refused } = themeFloor({ '--bank-font-family': fonts }, { dark: false });
      assert.equal(refused.length, 1, fonts);
      assert.match(refused[0]!.reason, /symbol, icon or redaction font/, fonts);
    }
    // Text fonts pass, whatever their names say besides.
    for (const fonts of ["'Inter', system-ui, sans-serif", 'Georgia, serif', 'Source Sans 3', 'Symbola Text Italic'.replace('Symbola ', ''), 'Roboto Flex'])
      assert.deepEqual(refusedNames({ '--bank-font-family': fonts }), [], fonts);
  });

  it('reads colours the browser resolves for it, when given the resolver', () => {
    assert.deepEqual(themeFloor({ '--bank-color-text': 'navy' }, { dark: false, resolveColor: () => 'rgb(0, 0, 128)' }).refused, []);
    assert.deepEqual(refusedNames({ '--bank-color-text': 'navy' }), ['--bank-color-text'], 'without it, unknown');
  });
});

describe('colour and length readings', () => {
  it('parses hex, rgb and hsl in both syntaxes, and transparent', () => {
    assert.deepEqual(parseColor('#fff'), { r: 255, g: 255, b: 255, a: 1 });
    assert.deepEqual(parseColor('#00000080'), { r: 0, g: 0, b: 0, a: 128 / 255 });
    assert.deepEqual(parseColor('rgb(120 20 60 / 50%)'), { r: 120, g: 20, b: 60, a: 0.5 });
    assert.deepEqual(parseColor('rgba(120, 20, 60, 0.25)'), { r: 120, g: 20, b: 60, a: 0.25 });
    assert.equal(parseColor('transparent')!.a, 0);
    const hsl = parseColor('hsl(210, 50%, 40%)')!;
    assert.deepEqual([Math.round(hsl.r), Math.round(hsl.g), Math.round(hsl.b)], [51, 102, 153]);
    for (const bad of ['', 'red', '#ggg', 'rgb(1,2)', 'url(x)']) assert.equal(parseColor(bad), null, bad);
  });

  it('computes the WCAG contrast ratio, blending a translucent foreground', () => {
    assert.equal(contrastRatio(parseColor('#000')!, parseColor('#fff')!), 21);
    assert.equal(contrastRatio(parseColor('#fff')!, parseColor('#fff')!), 1);
    assert.ok(Math.abs(contrastRatio(parseColor('#767676')!, parseColor('#fff')!) - 4.54) < 0.01);
    assert.equal(contrastRatio(parseColor('transparent')!, parseColor('#fff')!), 1);
  });

  it('reads lengths in px, rem, em, pt and %', () => {
    assert.deepEqual(parseLength('1.5rem'), { px: 24 });
    assert.deepEqual(parseLength('12pt'), { px: 16 });
    assert.deepEqual(parseLength('50%'), { percent: 50 });
    assert.deepEqual(parseLength('0'), { px: 0 });
    for (const bad of ['-1px', '1vw', 'auto', '10']) assert.equal(parseLength(bad), null, bad);
  });
});
