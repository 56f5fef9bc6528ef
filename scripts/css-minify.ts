/**
 * Minifies the CSS of a Lit `css` tagged template at build time (scripts/template-minify.ts
 * finds the templates): comments go, whitespace runs become one space, and the spaces around
 * `{ } ; , >` and after `:` go. Quoted strings are left as they
 * are (a template with an interpolation, `${…}`, is left whole by its caller). Spaces before `:`
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
