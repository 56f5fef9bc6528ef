/**
 * The pages the hand-off link opens on the payer's phone, in the payer's language (the
 * checkout's, else the phone's): the open link's page, with what is paid and one button whose
 * POST spends the link and goes on to the bank's page; and for a link already used, expired or
 * not a link, what to do instead. Plain HTML with a policy of its own: no script, its one style
 * by hash, forms only to itself and to the bank's page.
 */
import { createHash } from 'node:crypto';
import { pageText } from './html.js';
import { html } from 'hono/html';
import { KIT_LOCALES, type KitLocale } from '@bank-checkout/contract';

interface Words {
  openTitle: string;
  openBody: string;
  button: string;
  usedTitle: string;
  usedBody: string;
  expiredTitle: string;
  expiredBody: string;
  invalidTitle: string;
  invalidBody: string;
}

export const HANDOFF_WORDS: Readonly<Record<KitLocale, Words>> = {
  en: {
    openTitle: 'Continue to your bank',
    openBody: 'Continue to your bank’s page to sign in and confirm the payment. The page where you started shows the result.',
    button: 'Continue to my bank',
    usedTitle: 'This link was already used',
    usedBody: 'It opens your bank’s page once, and it already did. To go on on this phone, show a new code on the page where you started and scan it.',
    expiredTitle: 'This link has expired',
    expiredBody: 'To go on on this phone, show a new code on the page where you started and scan it.',
    invalidTitle: 'This link does not work',
    invalidBody: 'Check that you opened the whole link, or show a new code on the page where you started.',
  },
  es: {
    openTitle: 'Continúa en tu banco',
    openBody: 'Continúa en la página de tu banco para entrar y confirmar el pago. La página donde empezaste mostrará el resultado.',
    button: 'Continuar en mi banco',
    usedTitle: 'Este enlace ya se ha usado',
    usedBody:
      'Abre la página de tu banco una sola vez, y ya lo hizo. Para seguir en este móvil, muestra un código nuevo en la página donde empezaste y escanéalo.',
    expiredTitle: 'Este enlace ha caducado',
    expiredBody: 'Para seguir en este móvil, muestra un código nuevo en la página donde empezaste y escanéalo.',
    invalidTitle: 'Este enlace no funciona',
    invalidBody: 'Comprueba que has abierto el enlace completo, o muestra un código nuevo en la página donde empezaste.',
  },
  ca: {
    openTitle: 'Continua al teu banc',
    openBody: 'Continua a la pàgina del teu banc per entrar-hi i confirmar el pagament. La pàgina on has començat mostrarà el resultat.',
    button: 'Continua al meu banc',
    usedTitle: 'Aquest enllaç ja s’ha fet servir',
    usedBody:
      'Obre la pàgina del teu banc una sola vegada, i ja ho ha fet. Per continuar en aquest mòbil, mostra un codi nou a la pàgina on has començat i escaneja’l.',
    expiredTitle: 'Aquest enllaç ha caducat',
    expiredBody: 'Per continuar en aquest mòbil, mostra un codi nou a la pàgina on has començat i escaneja’l.',
    invalidTitle: 'Aquest enllaç no funciona',
    invalidBody: 'Comprova que has obert l’enllaç sencer, o mostra un codi nou a la pàgina on has començat.',
  },
  eu: {
    openTitle: 'Jarraitu zure bankuan',
    openBody: 'Jarraitu zure bankuaren orrian saioa hasteko eta ordainketa berresteko. Hasi zinen orriak emaitza erakutsiko du.',
    button: 'Jarraitu nire bankuan',
    usedTitle: 'Esteka hau erabili da dagoeneko',
    usedBody:
      'Zure bankuaren orria behin bakarrik irekitzen du, eta dagoeneko ireki du. Telefono honetan jarraitzeko, erakutsi kode berri bat hasi zinen orrian eta eskaneatu.',
    expiredTitle: 'Esteka hau iraungi da',
    expiredBody: 'Telefono honetan jarraitzeko, erakutsi kode berri bat hasi zinen orrian eta eskaneatu.',
    invalidTitle: 'Esteka honek ez du funtzionatzen',
    invalidBody: 'Egiaztatu esteka osoa ireki duzula, edo erakutsi kode berri bat hasi zinen orrian.',
  },
  gl: {
    openTitle: 'Continúa no teu banco',
    openBody: 'Continúa na páxina do teu banco para entrar e confirmar o pagamento. A páxina onde comezaches amosará o resultado.',
    button: 'Continuar no meu banco',
    usedTitle: 'Esta ligazón xa se usou',
    usedBody: 'Abre a páxina do teu banco unha soa vez, e xa o fixo. Para seguir neste móbil, amosa un código novo na páxina onde comezaches e escanéao.',
    expiredTitle: 'Esta ligazón caducou',
    expiredBody: 'Para seguir neste móbil, amosa un código novo na páxina onde comezaches e escanéao.',
    invalidTitle: 'Esta ligazón non funciona',
    invalidBody: 'Comproba que abriches a ligazón completa, ou amosa un código novo na páxina onde comezaches.',
  },
};

/** The page's language: the one the checkout asked for, else the best of the phone's (`Accept-Language`), else English. */
export function handoffLocale(asked: KitLocale | undefined, acceptLanguage: string | undefined): KitLocale {
  if (asked) return asked;
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
      return { lang: tag.split('-')[0]!, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q);
  return (wanted.map((w) => w.lang).find((l) => (KIT_LOCALES as readonly string[]).includes(l)) as KitLocale | undefined) ?? 'en';
}

const STYLE =
  'body{margin:0;font:1.05rem/1.5 system-ui,sans-serif;color:#1a2230;background:#f4f6fb}main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}' +
  'h1{font-size:1.4rem;line-height:1.25;margin:0 0 .75rem}p{margin:0 0 1rem}.amount{font-size:1.2rem}' +
  'button{font:inherit;font-weight:600;width:100%;min-height:48px;padding:.6rem 1rem;border:0;border-radius:10px;background:#1f4f9a;color:#fff;cursor:pointer}' +
  'button:focus-visible{outline:3px solid #1a2230;outline-offset:2px}' +
  '@media (prefers-color-scheme:dark){body{color:#e8edf5;background:#10151d}button{background:#7fb0ff;color:#0e141c}button:focus-visible{outline-color:#e8edf5}}';
const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

/** What a hand-off page shows. */
export type HandoffPage =
  { state: 'open'; locale: KitLocale; amount: number; payee: string; bankOrigin: string } | { state: 'used' | 'expired' | 'invalid'; locale: KitLocale };

/** The page's HTML and its Content-Security-Policy. */
export function handoffPage(p: HandoffPage): { body: string; csp: string } {
  const w = HANDOFF_WORDS[p.locale];
  const [title, body] =
    p.state === 'open'
      ? [w.openTitle, w.openBody]
      : p.state === 'used'
        ? [w.usedTitle, w.usedBody]
        : p.state === 'expired'
          ? [w.expiredTitle, w.expiredBody]
          : [w.invalidTitle, w.invalidBody];
  const amount =
    p.state === 'open'
      ? new Intl.NumberFormat(p.locale === 'en' ? 'en-GB' : `${p.locale}-ES`, { style: 'currency', currency: 'EUR' }).format(p.amount / 100)
      : '';
  const page = pageText(html`<!doctype html>
<html lang="${p.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body><main>
<h1>${title}</h1>
${p.state === 'open' ? html`<p class="amount"><strong>${amount}</strong> · ${p.payee}</p>` : ''}
<p>${body}</p>
${p.state === 'open' ? html`<form method="post"><button type="submit">${w.button}</button></form>` : ''}
</main></body>
</html>
`);
  const forms = p.state === 'open' ? `'self' ${p.bankOrigin}` : "'none'";
  const csp = `default-src 'none'; style-src '${STYLE_HASH}'; form-action ${forms}; base-uri 'none'; frame-ancestors 'none'`;
  return { body: page, csp };
}
