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

export interface IsolatedCheckoutHtml {
  /** The BFF's public address (`api`). */
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

/** The element with its frame written in (see the module's comment); every value escaped. */
export function isolatedCheckoutHtml({ api, launchToken, locale, mode, id }: IsolatedCheckoutHtml): string {
  const attrs = Object.entries({ id, api, 'launch-token': launchToken, locale, mode })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escape(v!)}"`)
    .join('');
  const src = `${api.replace(/\/+$/, '')}/v1/frame`;
  return (
    `<bank-checkout isolate${attrs}><template shadowrootmode="open" shadowrootdelegatesfocus>` +
    `<iframe part="frame" src="${escape(src)}" title="${escape((HOST_WORDS[(locale ?? 'en').toLowerCase().split(/[-_]/)[0]!] ?? HOST_WORDS.en!)[0])}" referrerpolicy="origin" hidden></iframe>` +
    `</template></bank-checkout>`
  );
}
