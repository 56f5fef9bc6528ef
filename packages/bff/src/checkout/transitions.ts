/**
 * The checkout's transition table: each payer action, the states it is allowed from, and the
 * modes it needs. `actionsFor` answers which actions a checkout's view offers now.
 */
import type { CheckoutAction, CheckoutMode, CheckoutState } from '@bank-checkout/contract';
import type { CheckoutRecord } from '../store/types.js';

export interface ActionRule {
  /** The states the action is allowed from. */
  from: readonly CheckoutState[];
  /** A mode the merchant must have allowed for this checkout. */
  needsMode?: CheckoutMode;
  /** Offered only when the merchant allowed more than one mode. */
  needsChoice?: boolean;
}

const START: readonly CheckoutState[] = ['select-bank', 'login', 'periodic'];

export const ACTIONS: Readonly<Record<CheckoutAction, ActionRule>> = {
  login: { from: ['select-bank', 'login'], needsMode: 'native' },
  'second-login': { from: ['second-login'] },
  contract: { from: ['select-contract'] },
  transfer: { from: ['select-account'] },
  validate: { from: ['validate'] },
  cancel: { from: ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic', 'redirect'] },
  mode: { from: START, needsChoice: true },
  redirect: { from: START, needsMode: 'redirect' },
  periodic: { from: ['periodic', 'select-bank'], needsMode: 'periodic' },
};

/** Whether `action` is allowed on a checkout in `state` with these modes. */
export function allows(action: CheckoutAction, state: CheckoutState, modes: readonly CheckoutMode[]): boolean {
  const rule = ACTIONS[action];
  if (!rule.from.includes(state)) return false;
  if (rule.needsMode && !modes.includes(rule.needsMode)) return false;
  if (rule.needsChoice && modes.length < 2) return false;
  return true;
}

/** The actions the payer may take now, in the table's order. */
export function actionsFor(rec: Pick<CheckoutRecord, 'state' | 'modes'>): CheckoutAction[] {
  return (Object.keys(ACTIONS) as CheckoutAction[]).filter((a) => allows(a, rec.state, rec.modes));
}
