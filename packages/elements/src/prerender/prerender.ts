/**
 * `import { isolatedCheckoutHtml } from '@bank-checkout/elements/prerender'`: the isolated
 * `<bank-checkout>` as HTML for the shop's server to write in its page, with the checkout's
 * frame already in it (a declarative shadow root). The browser starts loading the frame's page
 * and modules while it reads the shop's page, instead of once the element's script has run.
 *
 * The launch token is in the frame element's `name`: the frame's first script reads it, clears
 * it, and redeems it at once, without waiting for the element's script (which hands it the same
 * token by message, as a frame it made itself gets it). It is never in the frame's address, nor
 * in its request (which carries the page's origin alone, as `Referer`). Given the checkout's
 * `state` (and its `modes`, when it allows more than one), a checkout that opens on the bank
 * list gets a frame whose address says so (`?state=select-bank&lang=…`: no secret): the BFF's
 * page then comes with its bank list drawn, shown as soon as the element shows the frame, the
 * checkout's own facts filling in once it is redeemed. Any other state (a checkout under way)
 * gets the page that waits for the redemption, behind the element's placeholder, rather than a
 * bank list that would give way to another step. Until the element runs, the frame is hidden, so
 * nothing shows before the element can size it. No DOM needed: it runs on the shop's server.
 *
 * ```ts
 * const { launchToken, state, modes } = await bff.launch(checkoutId); // POST /v1/checkouts/:id/launch
 * res.send(`… ${isolatedCheckoutHtml({ api: 'https://pay.shop.example', launchToken, locale: 'es', state, modes })} …`);
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
  /**
   * The checkout's state as the shop's server knows it (the merchant API's answers give it): a
   * checkout at `select-bank` that allows native alone (`modes`), in a `locale` of the kit's,
   * gets its bank list drawn before it is redeemed; otherwise the frame waits for the redemption.
   */
  state?: string;
  /**
   * The ways to pay the checkout allows (`modes` in the merchant API's answers): one that allows
   * native alone starts on the bank list, and so does one that allows others too when `mode` asks
   * for native (one line says so above the list, with Change).
   */
  modes?: readonly string[];
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
export function isolatedCheckoutHtml({ api, launchToken, locale, mode, id, state, modes }: IsolatedCheckoutHtml): string {
  const frame = frameSrc(api);
  const lang = locale?.toLowerCase().split(/[-_]/)[0];
  // The bank list first: a native checkout at its start in a language of the kit's (by its own
  // keys), one that offers other ways to pay too when the page asks for this one (one line says
  // it, with Change).
  const others = (modes?.length ?? 0) > 1;
  const listed =
    state === 'select-bank' &&
    modes?.includes('native') &&
    (others ? mode === 'native' : !mode || mode === 'native') &&
    lang !== undefined &&
    Object.hasOwn(HOST_WORDS, lang);
  const src = listed ? `${frame}?state=select-bank&lang=${lang}${others ? '&mode=native' : ''}` : frame;
  const [title] = ownEntry(HOST_WORDS, locale) ?? HOST_WORDS.en!;
  const host = attributes({ id, api, 'launch-token': launchToken, locale, mode });
  const attrs = attributes({ part: 'frame', src, name: launchToken, title, referrerpolicy: 'origin' });
  return (
    `<bank-checkout isolate${host}><template shadowrootmode="open" shadowrootdelegatesfocus>` +
    `<iframe${attrs} hidden></iframe>` +
    `</template></bank-checkout>`
  );
}
