/**
 * What the merchant is told, as types: the webhook's events (written to the outbox with the change
 * they report, webhook.ts) and the in-process hooks' events. Nothing here imports the modules
 * that make them.
 */
import type { CheckoutMode } from '@bank-checkout/contract';
import type { CHANGE_SOURCES, webhookEventBody } from '@bank-checkout/contract/schemas';
import type { z } from 'zod';
import type { CheckoutRecord, NotificationRecord } from './store/types.js';

/** A checkout reached an outcome (or `unknown`), or left `unknown`: what, from where, and how it was paid. */
export interface CheckoutEvent {
  checkoutId: string;
  reference: string;
  amount: number;
  state: CheckoutRecord['state'];
  previousState: CheckoutRecord['state'];
  source: (typeof CHANGE_SOURCES)[number];
  /** How it was paid: `periodic` is a mandate for future payments, nothing paid now. */
  mode: CheckoutMode;
  /** For `periodic`: the order the payer set up. */
  schedule?: { frequency: string; startDate: string; endDate?: string };
}

/**
 * A stored result notification as the merchant sees it (listing, hook and webhook): what the
 * provider said and what the BFF did with it; the raw `dataReturn` and its signature stay in the
 * store.
 */
export type NotificationEvent = Omit<NotificationRecord, 'signature' | 'dataReturn' | 'dedupeKey' | 'receivedAt'> & {
  receivedAt: string;
  /** What the payer's bank said. */
  description: string | null;
  /** What the merchant sent at creation. */
  customData: string | null;
  accountDestiny: string | null;
};

/** What the merchant is told when a browser is refused the launch because another took it. */
export interface LaunchRefusedEvent {
  checkoutId: string;
  reference: string;
  /**
   * `launch_used`: the token had already been redeemed, and another browser has the checkout;
   * `launch_replaced`: a newer token of the checkout was redeemed by another browser before this one.
   */
  reason: 'launch_used' | 'launch_replaced';
  refusals: number;
  at: string;
}

export type WebhookEvent =
  | { type: 'checkout.updated'; data: CheckoutEvent }
  | { type: 'notification.received'; data: NotificationEvent }
  | { type: 'checkout.launch_refused'; data: LaunchRefusedEvent };

/** What the merchant receives: the event with its id and creation time. */
/**
 * What the merchant receives: the event with its id and creation time. It is one of the
 * contract's `webhookEventBody` (which documents every event): checked here, when compiled.
 */
export type WebhookDelivery = Conforming<WebhookEvent & { id: string; createdAt: string }>;
type Conforming<T extends z.output<typeof webhookEventBody>> = T;
