/**
 * `import { isolatedCheckoutHtml } from '@bank-checkout/elements/prerender'`: the isolated
 * `<bank-checkout>` as HTML for the shop's server to write in its page, with the checkout's
 * frame already in it (a declarative shadow root). The browser starts loading the frame's page
 * and modules while it reads the shop's page, instead of once the element's script has run; the
 * element, when it runs, takes that frame as it is and hands it the launch token (by message,
 * as always: the frame's address carries nothing; the frame's request carries the page's origin
 * alone, as `Referer`). Until then the frame is hidden, so nothing shows before the element can
 * size it. No DOM needed: it runs on the shop's server.
 *
 * ```ts
 * res.send(`… ${isolatedCheckoutHtml({ api: 'https://pay.shop.example', launchToken, locale: 'es' })} …`);
 * ```
 */
import { HOST_WORDS } from '../frame/host.js';
import { ownEntry } from '../frame/messages.js';

export interface IsolatedCheckoutHtml {
  /** The BFF's public address (`api`): `https://`, or `http://` on this machine (development). */
  api: string;
  /** The single-use launch token the merchant's server made for this page. */
  launchToken: string;
  /** The checkout's language (`locale`). */
  locale?: string;
  /** `mode` (`native`, `redirect` or `periodic`). */
  mode?: string;
  /** The element's `id`. */
  id?: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** ` name="value"` for each attribute given, every value escaped. */
const attributes = (attrs: Record<string, string | undefined>) =>
  Object.entries(attrs)
    .filter((a): a is [string, string] => a[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escape(v)}"`)
    .join('');

/** Hosts that are this machine: `http://` is accepted for them alone (development). */
const isLoopback = (hostname: string) => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$|\.localhost$/.test(hostname);

/**
 * The frame's address on the BFF at `api`; throws a TypeError saying why when `api` is not the
 * BFF's address: not a URL, a scheme other than `https:` (`http:` on this machine only), or a
 * user, password, query or fragment in it.
 */
function frameSrc(api: string): string {
  const url = URL.canParse(api) ? new URL(api) : null;
  const why = !url
    ? 'it is not a URL'
    : url.protocol === 'http:' && !isLoopback(url.hostname)
      ? 'http:// is for this machine only (localhost, 127.0.0.1, [::1])'
      : url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `not ${url.protocol}`
        : url.username || url.password || url.search || url.hash
          ? 'no user, password, query or fragment'
          : null;
  if (!url || why) throw new TypeError(`isolatedCheckoutHtml: api must be the BFF's https:// address (${why})`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/v1/frame`;
}

/**
 * The element with its frame written in (see the module's comment); every value escaped. Throws
 * a TypeError when `api` is not an address the frame may be loaded from (frameSrc).
 */
export function isolatedCheckoutHtml({ api, launchToken, locale, mode, id }: IsolatedCheckoutHtml): string {
  const src = frameSrc(api);
  const [title] = ownEntry(HOST_WORDS, locale) ?? HOST_WORDS.en!;
  const host = attributes({ id, api, 'launch-token': launchToken, locale, mode });
  const frame = attributes({ part: 'frame', src, title, referrerpolicy: 'origin' });
  return (
    `<bank-checkout isolate${host}><template shadowrootmode="open" shadowrootdelegatesfocus>` +
    `<iframe${frame} hidden></iframe>` +
    `</template></bank-checkout>`
  );
}
