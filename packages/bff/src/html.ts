/**
 * A page the BFF writes with `hono/html`: the template's text. Every part of the BFF's pages is
 * known when they are written, so the template is never asynchronous; one that were would be a
 * mistake, refused here rather than served as "[object Promise]".
 */
import type { HtmlEscapedString } from 'hono/utils/html';

export function pageText(page: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (page instanceof Promise) throw new Error('a page was written with asynchronous parts');
  return page.toString();
}
