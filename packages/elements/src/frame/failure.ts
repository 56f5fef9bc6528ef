/**
 * What the isolated checkout's host needs only when its frame cannot be shown: the panel and the
 * words that tell the payer why, in five languages, and what the page's developer is told of a
 * misconfiguration. A chunk of its own, loaded once the frame failed (frame/host.ts), so that
 * the host a page loads up front stays small.
 */
import { byLanguage } from './messages.js';
import { adoptStyle, type FrameFailureCode } from './host.js';

/**
 * Why the frame could not be shown, one sentence per failure (the BFF unreachable, too slow,
 * refusing this page), and "Try again" (the catalogues' `action.retry`: a test keeps them equal).
 * The host's own: it must have them when nothing else can be loaded. A client secret refused
 * reads as a page that cannot show the payment.
 */
export type FailureWords = readonly [unreachable: string, timeout: string, refused: string, retry: string];

export const FAILURE_WORDS: Readonly<Record<string, FailureWords>> = {
  en: [
    'The payment service cannot be reached. Check your connection and try again.',
    'The payment is taking too long to load.',
    'The payment cannot be shown on this page.',
    'Try again',
  ],
  es: [
    'No se puede conectar con el servicio de pago. Revisa tu conexión e inténtalo de nuevo.',
    'El pago tarda demasiado en cargar.',
    'El pago no se puede mostrar en esta página.',
    'Reintentar',
  ],
  ca: [
    'No es pot connectar amb el servei de pagament. Revisa la connexió i torna-ho a provar.',
    'El pagament triga massa a carregar-se.',
    'El pagament no es pot mostrar en aquesta pàgina.',
    'Torna-ho a provar',
  ],
  eu: [
    'Ezin da ordainketa-zerbitzuarekin konektatu. Egiaztatu konexioa eta saiatu berriro.',
    'Ordainketa kargatzeak gehiegi irauten du.',
    'Ordainketa ezin da orri honetan erakutsi.',
    'Saiatu berriro',
  ],
  gl: [
    'Non se pode conectar co servizo de pagamento. Revisa a túa conexión e téntao de novo.',
    'O pagamento tarda demasiado en cargar.',
    'O pagamento non se pode amosar nesta páxina.',
    'Tentar de novo',
  ],
};

/** The words for a locale (as given, then its language, then the browser's languages, then English). */
export const failureWords = (locale: string | null | undefined): FailureWords => byLanguage(FAILURE_WORDS, locale);

/** The failure's own style: its words, Try again (44 px high) and the shop's fallback, one under the other. */
const STYLE =
  '.failed{display:grid;gap:12px;align-content:start;justify-items:start;color:inherit}.failed p{margin:0}' +
  '.failed button{font:inherit;min-height:44px;padding:0 1em;border:1px solid;border-radius:var(--bank-radius,8px);background:none;color:inherit;cursor:pointer}';

/**
 * Why the frame could not be shown (an alert; its words come with `sayFailure`), Try again (none
 * for a client secret, which stays refused however often the payer tries), and the shop's own way
 * forward (`slot="fallback"`), shown only while the frame failed.
 */
export function failurePanel(root: ShadowRoot | HTMLElement, code: FrameFailureCode, retry: () => void): HTMLElement {
  adoptStyle(root, STYLE);
  const panel = document.createElement('div');
  panel.className = 'panel failed';
  panel.setAttribute('part', 'failure');
  panel.setAttribute('role', 'alert');
  const again = document.createElement('button');
  again.type = 'button';
  again.setAttribute('part', 'retry');
  again.addEventListener('click', retry);
  again.hidden = code === 'secret_refused';
  const fallback = document.createElement('slot');
  fallback.name = 'fallback';
  panel.append(document.createElement('p'), again, fallback);
  return panel;
}

/** The failure panel's words in `locale` (only what changed). */
export function sayFailure(panel: HTMLElement, code: FrameFailureCode, locale: string | null | undefined): void {
  const [unreachable, timeout, refused, retry] = failureWords(locale);
  const say = (el: Node | null | undefined, text: string) => {
    if (el && el.textContent !== text) el.textContent = text;
  };
  say(panel.firstChild, code === 'frame_unreachable' ? unreachable : code === 'frame_timeout' ? timeout : refused);
  say(panel.children[1], retry);
}

/**
 * What the page's developer is told: a client secret given to an isolated checkout (`secret`),
 * an `api` that is no web address (`api`), a BFF that does not answer this page's origin
 * (`refused`, `detail` its origin), and in development a BFF on this page's own origin
 * (`same-origin`).
 */
export function tellDeveloper(why: 'secret' | 'api' | 'refused' | 'same-origin' | 'theme', detail = ''): void {
  if (why === 'theme') console.warn(`bank-checkout: the checkout frame did not apply ${detail}; it keeps its own value.`);
  else if (why === 'same-origin')
    console.warn(
      "bank-checkout: the BFF is on this page's own origin, so the isolated checkout is in the same origin as the page and its scripts can reach into it. Serve the BFF from an origin of its own (such as https://pay.shop.example) for the isolation to protect the payer.",
    );
  else
    console.error(
      why === 'secret'
        ? 'bank-checkout: an isolated checkout opens with a launch token only (launch-token, made by your server for this page); it never runs a client secret (checkout-secret). Nothing was started. Create the checkout isolated and hand its launchToken to the page, or show an inline checkout without isolate.'
        : why === 'api'
          ? `bank-checkout: the api attribute "${detail}" is not an http(s) address; the isolated checkout cannot load.`
          : `bank-checkout: the BFF at ${detail} does not answer this page's origin (${location.origin}): list it in the BFF's ALLOWED_ORIGINS.`,
    );
}
