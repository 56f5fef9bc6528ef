/**
 * Minifies the CSS of Lit `css` tagged templates at build time: comments go, whitespace runs
 * become one space, and the spaces around `{ } ; , >` and after `:` go. Quoted strings are left
 * as they are, and a template with an interpolation (`${…}`) is left whole. Spaces before `:`
 * stay (`a :focus` is not `a:focus`), and so do the spaces around `+`, `-` and `~` (`calc()`
 * needs them).
 */

/** One stylesheet's text, minified. */
const STRING = /('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/;

export function minifyCss(css: string): string {
  // Comments first, reading strings as whole tokens (an apostrophe in a comment opens nothing).
  const uncommented = css.replace(new RegExp(`${STRING.source}|/\\*[\\s\\S]*?\\*/`, 'g'), (_m, str: string | undefined) => str ?? '');
  return uncommented
    .split(STRING)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};,>])\s*/g, '$1')
            .replace(/:\s+/g, ':')
            .replace(/;}/g, '}'),
    )
    .join('')
    .trim();
}

/** A module's source with each `css\`…\`` template minified (those with interpolations left whole). */
export function minifyCssTemplates(code: string): string {
  return code.replace(/\bcss`([^`]*)`/g, (whole, body: string) => (body.includes('${') ? whole : `css\`${minifyCss(body)}\``));
}
