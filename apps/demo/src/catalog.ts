/**
 * What the shop sells and how a cart adds up: the products and the ways to pay by bank (the
 * result page's words are in result-words.ts). Pure data and functions.
 */
import type { CheckoutMode } from '@bank-checkout/contract';
import type { Session } from './session.js';

export interface Product {
  id: string;
  name: string;
  description: string;
  /** In cents. */
  price: number;
}

export const PRODUCTS: readonly Product[] = [
  { id: 'mug', name: 'Stoneware mug', description: 'Hand-glazed, 350 ml, dishwasher safe.', price: 1850 },
  { id: 'tote', name: 'Linen tote bag', description: 'Undyed European linen with long handles.', price: 2400 },
  { id: 'coffee', name: 'Single-origin coffee, 1 kg', description: 'Washed Colombian beans, medium roast.', price: 2990 },
  { id: 'notebook', name: 'Dot-grid notebook', description: 'A5, 160 pages of 100 g paper, lay-flat binding.', price: 1275 },
];

export const MODES: readonly { mode: CheckoutMode; label: string; hint: string }[] = [
  { mode: 'native', label: 'In this page', hint: 'Log in to your bank and confirm the transfer without leaving the shop.' },
  { mode: 'redirect', label: "At my bank's page", hint: "Go to the payment gateway and your bank's own pages, then come back." },
  { mode: 'periodic', label: 'As a periodic payment', hint: 'Authorise a recurring transfer of this amount (a subscription).' },
];

export const MAX_QUANTITY = 99;

export const findProduct = (id: unknown) => PRODUCTS.find((p) => p.id === id);
export const cartTotal = (s: Session) => s.cart.reduce((sum, l) => sum + (findProduct(l.productId)?.price ?? 0) * l.quantity, 0);

/** A posted quantity from `min` to MAX_QUANTITY, or null. */
export function quantityOf(v: unknown, min: number): number | null {
  if (typeof v !== 'string' || !/^\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= MAX_QUANTITY ? n : null;
}

export const isMode = (v: unknown): v is CheckoutMode => MODES.some((m) => m.mode === v);

/** `mode` first, then the other modes: the order the checkout offers them. */
export const modesWith = (mode: CheckoutMode): CheckoutMode[] => [mode, ...MODES.map((m) => m.mode).filter((m) => m !== mode)];
