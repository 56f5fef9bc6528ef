/**
 * What an order allows at the gateway: the bank it fixes, the banks the payer may choose, and
 * why it cannot be paid (or authorised) now.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { LinkBank } from '@bank-checkout/provider';
import { LINK_BANKS, periodicBanksFor } from '../links/banks.js';
import { isExpired, type Order, type OrderStore } from '../links/store.js';
import { TEXTS } from './views.js';

export interface Refusal {
  status: ContentfulStatusCode;
  title: string;
  text: string;
}

export function orderRules(deps: { store: Pick<OrderStore, 'get'>; now: () => number }) {
  /** The periodic order a cancellation order cancels. */
  const targetOf = (order: Order) => (order.cancels ? deps.store.get(order.env, order.cancels) : undefined);

  return {
    targetOf,

    /** The bank fixed by the order, when the payer does not choose one. */
    fixedBank(order: Order): string | undefined {
      if (order.kind === 'periodic') return order.terms?.bankId;
      if (order.kind === 'cancel') return targetOf(order)?.periodic?.bankId;
      return undefined;
    },

    /** Banks the payer may choose: operational ones, and for a periodic order those with its frequency. */
    choosableBanks(order: Order): LinkBank[] {
      if (order.kind === 'periodic' && order.terms) return periodicBanksFor(order.terms.frequency);
      return LINK_BANKS.filter((b) => b.enabled === 1);
    },

    /** Why the order cannot be paid (or authorised) now; null when it can. */
    refusal(order: Order): Refusal | null {
      if (order.codStatus === 'OK') return { status: 409, title: TEXTS[order.kind].paid, text: 'Nothing more can be done with this link.' };
      if (order.kind === 'cancel' && targetOf(order)?.periodic?.status !== 'ACTIVE') {
        return { status: 409, title: 'The periodic payment order is already cancelled', text: 'Nothing more can be done with this link.' };
      }
      if (!order.enabled)
        return { status: 403, title: 'This payment link is disabled', text: 'The merchant has disabled this link. Ask the merchant for a new one.' };
      if (isExpired(order, deps.now())) return { status: 410, title: 'This payment link has expired', text: 'Ask the merchant for a new link.' };
      return null;
    },
  };
}

export type OrderRules = ReturnType<typeof orderRules>;
