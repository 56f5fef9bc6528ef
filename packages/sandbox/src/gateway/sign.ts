/**
 * Signed gateway URLs: `{publicUrl}/gateway/<env>/<kind>/<idDebt>?sig=<HMAC>`. The HMAC
 * (SHA-256, Base64url) covers the environment, the kind of page and the order id, keyed with a
 * secret drawn when the simulator starts; any change to the URL makes the gateway refuse it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const GATEWAY_KINDS = ['pay', 'periodic', 'cancel'] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

export function isGatewayKind(value: string): value is GatewayKind {
  return (GATEWAY_KINDS as readonly string[]).includes(value);
}

export function createUrlSigner(publicUrl: string, secret: Buffer = randomBytes(32)) {
  const mac = (env: string, kind: string, id: string) => createHmac('sha256', secret).update(`${env}/${kind}/${id}`).digest('base64url');
  return {
    /** The signed URL of one order's gateway page. */
    url: (env: string, kind: GatewayKind, id: string): string => `${publicUrl}/gateway/${env}/${kind}/${encodeURIComponent(id)}?sig=${mac(env, kind, id)}`,
    /** True when `sig` is the signature of this environment, kind and id. */
    verify: (env: string, kind: string, id: string, sig: string | undefined): boolean => {
      if (!sig || sig.length > 100) return false;
      const expected = Buffer.from(mac(env, kind, id));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
