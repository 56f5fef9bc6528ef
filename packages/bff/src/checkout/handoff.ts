/**
 * From the desktop to the phone: while a checkout waits at the bank's page (redirect or
 * periodic), the payer's page may ask for a link to open that page on a phone (shown as a QR
 * code). The link carries the checkout id and a single-use token of 192 random bits, of which the
 * store keeps only the SHA-256. Opening it (`look`) spends nothing: a preview, a `HEAD` or the
 * page itself only read it. The page's one button (`redeem`) spends it, once, before it expires,
 * for a redirect to the bank's signed page of that checkout. It never opens the checkout API:
 * the client secret (or the frame's key) stays on the desktop, which goes on reading the
 * checkout (the view says when the link was used or expired) and shows the result. A new link
 * replaces the one before.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, errors } from '../errors.js';
import type { KitLocale } from '@bank-checkout/contract';
import type { CheckoutRecord } from '../store/types.js';
import type { Core } from './core.js';
import { sha256Hex } from './secrets.js';

/** How long a hand-off link holds (and never past the checkout's expiry). */
export const HANDOFF_TTL_MS = 10 * 60_000;

const gone = () => new ApiError(410, 'handoff_expired', 'This link was already used or has expired. Show a new code on the checkout.');
const unknown = () => new ApiError(404, 'handoff_invalid', 'This link is not valid.');

/** What opening a link shows (HandoffActions.look). */
export type HandoffLook =
  | { state: 'open'; locale: KitLocale | undefined; bankOrigin: string; amount: number; payee: string }
  | { state: 'used' | 'expired'; locale: KitLocale | undefined };

/** `<checkout id>.<token>`: both halves in the base64url alphabet. */
const TOKEN = /^(chk_[A-Za-z0-9_-]{10,64})\.([A-Za-z0-9_-]{32})$/;

export function handoffActions(core: Core) {
  const { reader, now, config } = core;

  /** The checkout and hand-off a link names, when its token is the one stored (compared in constant time). */
  async function find(raw: string): Promise<{ rec: CheckoutRecord; h: NonNullable<CheckoutRecord['internal']['handoff']> } | null> {
    const m = TOKEN.exec(raw);
    if (!m) return null;
    const rec = await reader.getCheckout(m[1]!);
    const h = rec?.internal.handoff;
    if (!rec || !h) return null;
    const given = Buffer.from(await sha256Hex(m[2]!), 'hex');
    return timingSafeEqual(given, Buffer.from(h.hash, 'hex')) ? { rec, h } : null;
  }

  return {
    /** A new single-use link to this checkout's bank page (replacing any earlier one); its page speaks `locale`. */
    async create(rec: CheckoutRecord, locale?: KitLocale): Promise<{ url: string; expiresAt: string }> {
      const open = (r: CheckoutRecord) => r.state === 'redirect' && Boolean(r.internal.url);
      if (!open(rec)) throw errors.conflict('invalid_state', "A link for the phone exists only while the checkout waits at the bank's page.");
      const token = randomBytes(24).toString('base64url');
      const expiresAt = Math.min(now() + HANDOFF_TTL_MS, rec.expiresAt);
      const hash = await sha256Hex(token);
      const { changed } = await core.change(
        rec,
        'handoff',
        (r) => (open(r) ? { internal: { ...r.internal, handoff: { hash, expiresAt, used: false, ...(locale ? { locale } : {}) } } } : null),
        'native',
      );
      if (!changed) throw errors.conflict('invalid_state', "A link for the phone exists only while the checkout waits at the bank's page.");
      return { url: `${config.publicUrl}/v1/handoff/${rec.id}.${token}`, expiresAt: new Date(expiresAt).toISOString() };
    },

    /**
     * What a link is now, read only (opening its page, a preview, a `HEAD`): `open` with the bank
     * page's origin and what the payer pays, or `used` / `expired` (the checkout moved on too);
     * null when it is not a link. Each with the language its page speaks.
     */
    async look(raw: string): Promise<HandoffLook | null> {
      const found = await find(raw);
      if (!found) return null;
      const { rec, h } = found;
      const locale = h.locale;
      if (h.used) return { state: 'used', locale };
      if (!(rec.state === 'redirect' && rec.internal.url && now() < h.expiresAt)) return { state: 'expired', locale };
      return { state: 'open', locale, bankOrigin: new URL(rec.internal.url).origin, amount: rec.amount, payee: rec.holderDestiny || config.merchant.name };
    },

    /** Redeems a link once (its page's button): the bank's page to go to, or 404 (not a link) / 410 (used, expired, or the checkout moved on). */
    async redeem(raw: string): Promise<string> {
      const found = await find(raw);
      if (!found) throw unknown();
      const { rec, h } = found;
      const settled = await core.settle(rec);
      const usable = (r: CheckoutRecord) => {
        const x = r.internal.handoff;
        return r.state === 'redirect' && Boolean(r.internal.url) && x?.hash === h.hash && !x.used && now() < x.expiresAt;
      };
      // Marked used with compare-and-set: two phones scanning at once get the page once.
      const { record, changed } = await core.change(
        settled,
        'handoff',
        (r) => (usable(r) ? { internal: { ...r.internal, handoff: { ...r.internal.handoff!, used: true } } } : null),
        'native',
      );
      if (!changed || !record.internal.url) throw gone();
      return record.internal.url;
    },
  };
}
