/**
 * Gateway sessions: the steps of one visit are tied together by a random id in a hidden field,
 * valid for 30 minutes after its last use; the signed URL alone never moves an order past its
 * summary.
 */
import { randomBytes } from 'node:crypto';
import type { LinkEnv, Order } from '../links/store.js';

export const GATEWAY_SESSION_TTL_MS = 30 * 60_000;
const MAX_SESSIONS = 10_000;

export type Stage = 'bank' | 'login' | 'code' | 'failed';

export interface GatewaySession {
  id: string;
  env: LinkEnv;
  idDebt: string;
  stage: Stage;
  bankId?: string;
  /** When the payer started: the notification's `dateInitPayment`. */
  initAt: number;
  lastUsed: number;
}

export function createSessionStore(now: () => number) {
  const sessions = new Map<string, GatewaySession>();
  return {
    /** A new visit of `order`; drops visits unused for too long, and the oldest past the limit. */
    open(order: Order, stage: Stage, bankId?: string): GatewaySession {
      const t = now();
      for (const [id, s] of sessions) if (t - s.lastUsed > GATEWAY_SESSION_TTL_MS) sessions.delete(id);
      while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      const s: GatewaySession = {
        id: randomBytes(18).toString('base64url'),
        env: order.env,
        idDebt: order.idDebt,
        stage,
        initAt: t,
        lastUsed: t,
        ...(bankId ? { bankId } : {}),
      };
      sessions.set(s.id, s);
      return s;
    },
    /** The visit `id` of this very order, still valid (and now used again); else undefined. */
    find(order: Order, id: string | null): GatewaySession | undefined {
      const s = id ? sessions.get(id) : undefined;
      if (!s || s.env !== order.env || s.idDebt !== order.idDebt) return undefined;
      const t = now();
      if (t - s.lastUsed > GATEWAY_SESSION_TTL_MS) {
        sessions.delete(s.id);
        return undefined;
      }
      s.lastUsed = t;
      return s;
    },
    end(session: GatewaySession): void {
      sessions.delete(session.id);
    },
  };
}
