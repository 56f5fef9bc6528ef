/**
 * `Idempotency-Key` on the merchant API's creations. Checkouts keep theirs with the checkout
 * (the store writes both or neither); payment links, periodic orders and their cancellation
 * keep the provider's answer: the key is claimed before the provider is called and the answer
 * stored after, so a retried request gets the same link (200) instead of a second payable one.
 * A key reused with another body is refused (409 `idempotency_mismatch`); a retry while the
 * first request still runs gets 409 `idempotency_in_progress` with Retry-After.
 */
import type { Context } from 'hono';
import { ApiError, errors } from '../../errors.js';
import { sha256Hex } from '../../checkout/secrets.js';
import { jsonText, type JsonAnswer } from '../../openapi.js';
import type { RouteDeps } from '../../parts.js';

export const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description: 'Makes retries safe: the same key and body give the first answer again (200).',
  schema: { type: 'string' as const, minLength: 1, maxLength: 128 },
};

/** The request's Idempotency-Key, checked: 1 to 128 visible ASCII characters. */
export function idempotencyKey(c: Context): string | undefined {
  const key = c.req.header('Idempotency-Key');
  if (key !== undefined && !/^[\x21-\x7e]{1,128}$/.test(key)) {
    throw errors.validation([{ path: 'Idempotency-Key', message: 'must be 1 to 128 visible ASCII characters' }]);
  }
  return key;
}

/** The fingerprint a key is bound to: the body as validated. */
const bodyFingerprint = (body: unknown) => sha256Hex(JSON.stringify(body));

function mismatch(): ApiError {
  return errors.conflict('idempotency_mismatch', 'This Idempotency-Key was used with a different request body.');
}

/** Runs a creation once per Idempotency-Key of its `scope`; answers 201, or 200 with the first answer. */
export async function replayable<T extends object>(
  p: Pick<RouteDeps, 'replies' | 'now'>,
  c: Context,
  scope: string,
  body: unknown,
  create: () => Promise<T>,
): Promise<JsonAnswer<T, 200 | 201>> {
  const key = idempotencyKey(c);
  if (key === undefined) {
    const created: T = await create();
    return c.json(created, 201);
  }
  const scoped = `${scope}:${key}`;
  const fingerprint = await bodyFingerprint(body);
  const claim = await p.replies.claimReply({ key: scoped, fingerprint, createdAt: p.now() });
  if (!claim.claimed) {
    if (claim.existing.fingerprint !== fingerprint) throw mismatch();
    if (claim.existing.status === null) {
      const err = errors.conflict('idempotency_in_progress', 'A request with this Idempotency-Key is still running; send it again shortly.');
      c.header('Retry-After', '1');
      throw err;
    }
    // The answer stored when the key was first used: the JSON of a `T`, sent again as it is.
    return jsonText<T>(c, JSON.stringify(claim.existing.body));
  }
  let result: T;
  try {
    result = await create();
  } catch (err) {
    // No link was made (or none is known): the key is free again for a retry.
    await p.replies.releaseReply(scoped);
    throw err;
  }
  await p.replies.completeReply(scoped, 201, result);
  return c.json(result, 201);
}
