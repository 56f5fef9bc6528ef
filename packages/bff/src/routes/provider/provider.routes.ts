/**
 * What the provider calls, declared: the result notification (form or JSON), and the payer's
 * browser posting the same result to urlOk/urlError, which the BFF verifies and turns into a 303
 * to the merchant's page. No secret of ours: each result carries its own signature, verified by
 * the handlers (provider.handlers.ts) before anything else; provider.index.ts mounts them.
 */
import { createRoute } from '@hono/zod-openapi';
import { notificationAck, returnResult } from '@bank-checkout/contract/schemas';
import { json, withErrors } from '../../openapi.js';

/**
 * The result as the provider sends it. Documented, not validated here: the receiver verifies
 * the signature first, and a validly signed result is never refused for its encoding.
 */
const resultFields = {
  type: 'object' as const,
  properties: {
    dataReturn: { type: 'string' as const, description: 'Base64 JSON of the result' },
    signatureDataReturn: { type: 'string' as const, description: 'HMAC-SHA256 of dataReturn with the API key' },
  },
  required: ['dataReturn', 'signatureDataReturn'],
};
const resultBody = {
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: resultFields }, 'application/json': { schema: resultFields } },
};
/** `?c=<checkout id>`, which the BFF puts on the URLs it gives the provider. */
const checkoutHint = [{ name: 'c', in: 'query' as const, required: false, schema: { type: 'string' as const, maxLength: 64 } }];

export const notification = createRoute(
  withErrors({
    method: 'post',
    path: '/notifications/provider',
    summary: 'Result notification from the provider (form or JSON)',
    tags: ['provider'],
    parameters: checkoutHint,
    request: { body: resultBody },
    responses: { 200: json(notificationAck, 'Stored (or already stored): acknowledged') },
  }),
);

/** The payer's browser, back from the provider's page after a success (`ok`) or a failure (`error`). */
const returned = (kind: 'ok' | 'error') =>
  createRoute(
    withErrors({
      method: 'post',
      path: `/return/${kind}`,
      summary: `Payer returning after ${kind === 'ok' ? 'success' : 'failure'}: verified, then 303 to the merchant's page`,
      tags: ['provider'],
      parameters: checkoutHint,
      request: { body: resultBody },
      responses: {
        200: json(returnResult, 'The result, when the checkout has no page to return to'),
        303: { description: "To the merchant's page, with `checkout` and `result` in the query", headers: { Location: { schema: { type: 'string' } } } },
      },
    }),
  );

export const returnOk = returned('ok');
export const returnError = returned('error');
