/**
 * Sessions and transactions of one native-service instance. A session ends after
 * `idleMs` without a call; its transfer must be validated within `deadlineMs` of its init.
 */
import { randomUUID } from 'node:crypto';
import type { FieldBank, ValidationBank } from '@bank-checkout/provider';
import type { SimBank } from './catalogue.js';

export interface PendingSecondLogin {
  type: 1 | 2 | 3;
  value: string | null;
  /** The field as sent to the integrator, its testValue being the accepted code. */
  field: FieldBank;
}

/** A validation as sent to the integrator: the spec types `type` as a String. */
export type IssuedValidation = Omit<ValidationBank, 'type'> & { type: string };

export type TransactionState = 'pending' | 'done' | 'failed' | 'cancelled';

export interface Transaction {
  id: string;
  initAt: number;
  /** Index of the round being asked in `SimBank.rounds`. */
  round: number;
  /** The current round's validations as sent, each with the value it accepts. */
  validations: IssuedValidation[];
  state: TransactionState;
  /** The code the transaction ended with when failed. */
  code?: string;
}

export interface Session {
  id: string;
  sim: SimBank;
  state: 'second-login' | 'open';
  secondLogin?: PendingSecondLogin;
  /** The documented "may not transfer" test user: transfer/init answers B108. */
  mayNotTransfer: boolean;
  lastUsed: number;
  transaction?: Transaction;
}

/** Most sessions kept at once; the oldest goes first when a login would pass it. */
const MAX_SESSIONS = 10_000;

export function createSessionStore(now: () => number, idleMs: number) {
  const sessions = new Map<string, Session>();
  const expired = (s: Session, t: number) => t - s.lastUsed > idleMs;

  return {
    open(sim: SimBank, init: Pick<Session, 'state' | 'secondLogin' | 'mayNotTransfer'>): Session {
      const t = now();
      for (const [id, s] of sessions) if (expired(s, t)) sessions.delete(id);
      while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      const session: Session = { id: randomUUID(), sim, lastUsed: t, ...init };
      sessions.set(session.id, session);
      return session;
    },
    /** The live session of this id (its idle time restarts), or why there is none. */
    find(id: string): Session | string {
      const s = sessions.get(id);
      const t = now();
      if (!s) return `sessionId: unknown session '${id}'; log in first`;
      if (expired(s, t)) {
        sessions.delete(id);
        return `sessionId: session expired after ${idleMs / 60_000} minutes of inactivity; log in again`;
      }
      s.lastUsed = t;
      return s;
    },
    end(id: string): void {
      sessions.delete(id);
    },
    newTransactionId: () => randomUUID(),
  };
}
