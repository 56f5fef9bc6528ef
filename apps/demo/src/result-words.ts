/**
 * The words of the shop's result page in the payment's language (the language the payer chose
 * for the checkout: English and Spanish; other languages read the English ones), so the page
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
  /** `{frequency} from {start}`, then `until {end}` or `until you cancel it`. */
  from: string;
  until: string;
  untilCancelled: string;
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
  from: '{frequency} from {start}',
  until: 'until {end}',
  untilCancelled: 'until you cancel it',
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
  from: '{frequency} desde el {start}',
  until: 'hasta el {end}',
  untilCancelled: 'hasta que lo canceles',
};

/** The languages the result page has words in. */
export const RESULT_WORDS: Readonly<Record<string, ResultWords>> = { en, es };

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
  const from = fill(w.from, { frequency: w.frequencies[schedule.frequency] ?? schedule.frequency, start: longDate(schedule.startDate, lang) });
  return `${from} ${schedule.endDate ? fill(w.until, { end: longDate(schedule.endDate, lang) }) : w.untilCancelled}`;
}
