/**
 * Who the client is behind proxies: the socket's peer, or, behind the proxies TRUST_PROXY names
 * (by number, or by address or CIDR), the address the nearest trusted proxy appended to
 * X-Forwarded-For. Every rate limit and lock-out is counted by it.
 */
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { TrustProxy } from './config.js';
import type { Logger } from './log.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The trusted proxies' ranges, parsed once per configuration. */
const parsedRanges = new WeakMap<TrustProxy, Range[]>();
function rangesOf(trust: TrustProxy): Range[] {
  let ranges = parsedRanges.get(trust);
  if (!ranges) {
    ranges = trust.addresses.flatMap((cidr): Range[] => {
      try {
        return [ipaddr.parseCIDR(cidr)];
      } catch {
        return [];
      }
    });
    parsedRanges.set(trust, ranges);
  }
  return ranges;
}

/** Whether `address` (an IPv4-mapped IPv6 address is its IPv4) lies in one of the trusted proxies' ranges. */
export function isTrustedProxy(trust: TrustProxy, address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return rangesOf(trust).some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits));
}

/**
 * The client's address: the socket's peer, or behind trusted proxies the address the nearest
 * trusted proxy appended to X-Forwarded-For. Entries to the left of that were written by the
 * client (or an untrusted hop) and are never believed.
 */
export function clientAddress(c: Context, trust: TrustProxy): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const peer = incoming?.socket?.remoteAddress ?? 'local';
  if (!trust.hops && !trust.addresses.length) return peer;
  const forwarded = (c.req.header('X-Forwarded-For') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  if (trust.hops) return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  let i = chain.length - 1;
  while (i > 0 && isTrustedProxy(trust, chain[i]!)) i--;
  return chain[i]!;
}

/**
 * Logs one warning, the first time a request carries X-Forwarded-For while no proxy is trusted
 * (`TRUST_PROXY=0`): behind a proxy every client then has the proxy's address, so one client's
 * wrong secrets lock every other out. Nothing is checked once a proxy is trusted.
 */
export function untrustedProxyWarning(trust: TrustProxy, logger: Logger): MiddlewareHandler {
  let warned = trust.hops > 0 || trust.addresses.length > 0;
  return async (c, next) => {
    if (!warned && c.req.header('X-Forwarded-For') !== undefined) {
      warned = true;
      logger.log('warn', 'proxy.not_trusted', {
        hint: 'requests arrive with X-Forwarded-For but TRUST_PROXY=0: every client counts as the proxy, so rate limits and lock-outs hit all of them at once; set TRUST_PROXY to the number of proxies in front (1 for one) or their addresses or CIDRs',
      });
    }
    await next();
  };
}
