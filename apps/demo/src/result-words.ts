/**
 * The words of the shop's result page in the payment's language (the language the payer chose
 * for the checkout: the five the checkout speaks; any other reads the English ones), so the page
 * and the checkout on it speak one language and offer the same next step. Dates are written
 * with Intl in that language, never as `YYYY-MM-DD`.
 */
import type { CheckoutState } from '@bank-checkout/contract';

export interface Words {
  title: string;
  body: string;
}

export interface ResultWords {
  /** The locale dates are written in (the shop's English is Irish English, as its amounts). */
  intl: string;
  /** Each final state; `failedAgain` and `cancelledAgain` when the checkout below offers to pay again. */
  final: Partial<Record<CheckoutState | 'failedAgain' | 'cancelledAgain', Words>>;
  /** A payment still under way. */
  underWay: Words;
  /** A payment started again on the result page (after a failure or a cancellation). */
  payAgain: Words;
  /** A periodic order the payer set up: a mandate, nothing paid today. */
  mandate: Words;
  order: string;
  continueShopping: string;
  backToCart: string;
  /** The links shown once the checkout ended. */
  seeOrder: string;
  seeWhatHappened: string;
  frequencies: Record<string, string>;
  /** A periodic order's schedule with an end, and without one. */
  schedule: string;
  scheduleOpen: string;
}

const en: ResultWords = {
  intl: 'en-IE',
  final: {
    succeeded: { title: 'Thank you: your payment is complete', body: 'We have received your payment and are preparing your order.' },
    failed: { title: 'The payment did not go through', body: 'Nothing was charged. You can try again from your cart.' },
    failedAgain: { title: 'The payment did not go through', body: 'Nothing was charged. You can try again below.' },
    cancelled: { title: 'The payment was cancelled', body: 'Nothing was charged. Your cart is still here.' },
    cancelledAgain: { title: 'The payment was cancelled', body: 'Nothing was charged. You can try again below.' },
    expired: { title: 'The payment expired', body: 'Nothing was charged. Start again from your cart.' },
    unknown: { title: 'Waiting for your bank', body: 'Your bank has not told us the outcome yet; this page checks again.' },
  },
  underWay: { title: 'Your payment is under way', body: 'The bank has not confirmed it yet; this page shows the outcome as soon as it arrives.' },
  payAgain: { title: 'Pay for your order', body: 'Nothing was charged. Pay below, in the page or at your bank.' },
  mandate: { title: 'Your periodic payment is set up', body: 'Nothing was charged today: your bank pays this amount on the schedule below.' },
  order: 'Order',
  continueShopping: 'Continue shopping',
  backToCart: 'Back to your cart',
  seeOrder: 'Continue: see your order',
  seeWhatHappened: 'See what happened to your order',
  frequencies: { Weekly: 'Weekly', Monthly: 'Monthly', Quarterly: 'Every three months', Yearly: 'Yearly' },
  schedule: '{frequency} from {start} until {end}',
  scheduleOpen: '{frequency} from {start} until you cancel it',
};

const es: ResultWords = {
  intl: 'es-ES',
  final: {
    succeeded: { title: 'Gracias: tu pago se ha completado', body: 'Hemos recibido tu pago y estamos preparando tu pedido.' },
    failed: { title: 'El pago no se ha realizado', body: 'No se ha cobrado nada. Puedes volver a intentarlo desde tu carrito.' },
    failedAgain: { title: 'El pago no se ha realizado', body: 'No se ha cobrado nada. Puedes volver a intentarlo aquí abajo.' },
    cancelled: { title: 'Has cancelado el pago', body: 'No se ha cobrado nada. Tu carrito sigue aquí.' },
    cancelledAgain: { title: 'Has cancelado el pago', body: 'No se ha cobrado nada. Puedes volver a intentarlo aquí abajo.' },
    expired: { title: 'El pago ha caducado', body: 'No se ha cobrado nada. Empieza de nuevo desde tu carrito.' },
    unknown: { title: 'Esperando a tu banco', body: 'Tu banco aún no nos ha dicho cómo ha ido; esta página vuelve a comprobarlo.' },
  },
  underWay: { title: 'Tu pago está en curso', body: 'El banco aún no lo ha confirmado; esta página muestra el resultado en cuanto llegue.' },
  payAgain: { title: 'Paga tu pedido', body: 'No se ha cobrado nada. Paga aquí abajo, en esta página o en la de tu banco.' },
  mandate: { title: 'Tu pago periódico está autorizado', body: 'Hoy no se ha cobrado nada: tu banco pagará este importe según el calendario de abajo.' },
  order: 'Pedido',
  continueShopping: 'Seguir comprando',
  backToCart: 'Volver a tu carrito',
  seeOrder: 'Continuar: ver tu pedido',
  seeWhatHappened: 'Ver qué ha pasado con tu pedido',
  frequencies: { Weekly: 'Semanal', Monthly: 'Mensual', Quarterly: 'Trimestral', Yearly: 'Anual' },
  schedule: '{frequency} desde el {start} hasta el {end}',
  scheduleOpen: '{frequency} desde el {start} hasta que lo canceles',
};

const ca: ResultWords = {
  intl: 'ca-ES',
  final: {
    succeeded: { title: "Gràcies: el pagament s'ha completat", body: 'Hem rebut el pagament i estem preparant la comanda.' },
    failed: { title: "El pagament no s'ha fet", body: "No s'ha cobrat res. Pots tornar-ho a provar des de la cistella." },
    failedAgain: { title: "El pagament no s'ha fet", body: "No s'ha cobrat res. Pots tornar-ho a provar aquí sota." },
    cancelled: { title: 'Has cancel·lat el pagament', body: "No s'ha cobrat res. La cistella continua aquí." },
    cancelledAgain: { title: 'Has cancel·lat el pagament', body: "No s'ha cobrat res. Pots tornar-ho a provar aquí sota." },
    expired: { title: 'El pagament ha caducat', body: "No s'ha cobrat res. Torna a començar des de la cistella." },
    unknown: { title: 'Esperant el teu banc', body: 'El banc encara no ens ha dit com ha anat; aquesta pàgina ho torna a comprovar.' },
  },
  underWay: { title: 'El pagament està en curs', body: "El banc encara no l'ha confirmat; aquesta pàgina mostra el resultat tan bon punt arribi." },
  payAgain: { title: 'Paga la comanda', body: "No s'ha cobrat res. Paga aquí sota, en aquesta pàgina o en la del teu banc." },
  mandate: { title: 'El pagament periòdic està autoritzat', body: "Avui no s'ha cobrat res: el banc pagarà aquest import segons el calendari de sota." },
  order: 'Comanda',
  continueShopping: 'Continua comprant',
  backToCart: 'Torna a la cistella',
  seeOrder: 'Continua: mira la comanda',
  seeWhatHappened: 'Mira què ha passat amb la comanda',
  frequencies: { Weekly: 'Setmanal', Monthly: 'Mensual', Quarterly: 'Trimestral', Yearly: 'Anual' },
  schedule: '{frequency} des del {start} fins al {end}',
  scheduleOpen: '{frequency} des del {start} fins que el cancel·lis',
};

const gl: ResultWords = {
  intl: 'gl-ES',
  final: {
    succeeded: { title: 'Grazas: o teu pagamento completouse', body: 'Recibimos o teu pagamento e estamos a preparar o teu pedido.' },
    failed: { title: 'O pagamento non se realizou', body: 'Non se cobrou nada. Podes tentalo de novo desde o teu carro.' },
    failedAgain: { title: 'O pagamento non se realizou', body: 'Non se cobrou nada. Podes tentalo de novo aquí abaixo.' },
    cancelled: { title: 'Cancelaches o pagamento', body: 'Non se cobrou nada. O teu carro segue aquí.' },
    cancelledAgain: { title: 'Cancelaches o pagamento', body: 'Non se cobrou nada. Podes tentalo de novo aquí abaixo.' },
    expired: { title: 'O pagamento caducou', body: 'Non se cobrou nada. Comeza de novo desde o teu carro.' },
    unknown: { title: 'Á espera do teu banco', body: 'O teu banco aínda non nos dixo como foi; esta páxina volve comprobalo.' },
  },
  underWay: { title: 'O teu pagamento está en curso', body: 'O banco aínda non o confirmou; esta páxina amosa o resultado en canto chegue.' },
  payAgain: { title: 'Paga o teu pedido', body: 'Non se cobrou nada. Paga aquí abaixo, nesta páxina ou na do teu banco.' },
  mandate: {
    title: 'O teu pagamento periódico está autorizado',
    body: 'Hoxe non se cobrou nada: o teu banco pagará este importe segundo o calendario de abaixo.',
  },
  order: 'Pedido',
  continueShopping: 'Seguir mercando',
  backToCart: 'Volver ao teu carro',
  seeOrder: 'Continuar: ver o teu pedido',
  seeWhatHappened: 'Ver que pasou co teu pedido',
  frequencies: { Weekly: 'Semanal', Monthly: 'Mensual', Quarterly: 'Trimestral', Yearly: 'Anual' },
  schedule: '{frequency} desde o {start} ata o {end}',
  scheduleOpen: '{frequency} desde o {start} ata que o canceles',
};

const eu: ResultWords = {
  intl: 'eu-ES',
  final: {
    succeeded: { title: 'Eskerrik asko: ordainketa osatu da', body: 'Zure ordainketa jaso dugu eta eskaera prestatzen ari gara.' },
    failed: { title: 'Ordainketa ez da egin', body: 'Ez da ezer kobratu. Saskitik berriro saia zaitezke.' },
    failedAgain: { title: 'Ordainketa ez da egin', body: 'Ez da ezer kobratu. Hemen behean berriro saia zaitezke.' },
    cancelled: { title: 'Ordainketa bertan behera utzi duzu', body: 'Ez da ezer kobratu. Saskia hemen duzu oraindik.' },
    cancelledAgain: { title: 'Ordainketa bertan behera utzi duzu', body: 'Ez da ezer kobratu. Hemen behean berriro saia zaitezke.' },
    expired: { title: 'Ordainketa iraungi da', body: 'Ez da ezer kobratu. Hasi berriro saskitik.' },
    unknown: { title: 'Zure bankuaren zain', body: 'Zure bankuak ez digu oraindik emaitza esan; orri honek berriro egiaztatzen du.' },
  },
  underWay: { title: 'Ordainketa bidean da', body: 'Bankuak ez du oraindik berretsi; orri honek emaitza erakutsiko du iritsi bezain laster.' },
  payAgain: { title: 'Ordaindu eskaera', body: 'Ez da ezer kobratu. Ordaindu hemen behean, orri honetan edo zure bankuarenean.' },
  mandate: { title: 'Aldizkako ordainketa baimendu da', body: 'Gaur ez da ezer kobratu: zure bankuak zenbateko hau ordainduko du beheko egutegiaren arabera.' },
  order: 'Eskaera',
  continueShopping: 'Jarraitu erosten',
  backToCart: 'Itzuli saskira',
  seeOrder: 'Jarraitu: ikusi eskaera',
  seeWhatHappened: 'Ikusi zer gertatu den eskaerarekin',
  frequencies: { Weekly: 'Astero', Monthly: 'Hilero', Quarterly: 'Hiru hilean behin', Yearly: 'Urtero' },
  schedule: '{frequency}; hasiera: {start}; amaiera: {end}',
  scheduleOpen: '{frequency}; hasiera: {start}; bertan behera utzi arte',
};

/** The languages the result page has words in. */
export const RESULT_WORDS: Readonly<Record<string, ResultWords>> = { en, es, ca, eu, gl };

/** The words for `locale`, and the language they are in (English for a language without its own). */
export function resultWords(locale: string): { lang: string; words: ResultWords } {
  const lang = RESULT_WORDS[locale] ? locale : 'en';
  return { lang, words: RESULT_WORDS[lang]! };
}

const fill = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '');

/** `2026-11-30` as people write it in `lang` ("30 November 2026", "30 de noviembre de 2026"); the text itself when it is no date. */
export function longDate(iso: string, lang: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : null;
  const intl = resultWords(lang).words.intl;
  return d && !Number.isNaN(d.getTime()) ? new Intl.DateTimeFormat(intl, { dateStyle: 'long', timeZone: 'UTC' }).format(d) : iso;
}

/** "Monthly from 30 November 2026 until you cancel it", in `lang`. */
export function scheduleText(schedule: { frequency: string; startDate: string; endDate?: string | null | undefined }, lang: string): string {
  const w = resultWords(lang).words;
  const frequency = w.frequencies[schedule.frequency] ?? schedule.frequency;
  const start = longDate(schedule.startDate, lang);
  return schedule.endDate ? fill(w.schedule, { frequency, start, end: longDate(schedule.endDate, lang) }) : fill(w.scheduleOpen, { frequency, start });
}
