/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate the routes.
 */
import { z } from 'zod';
import * as c from '@bank-checkout/contract/schemas';
import * as m from '@bank-checkout/contract/schemas';

type Op = {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: 'checkout' | 'merchant' | 'provider';
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  auth?: 'checkout' | 'merchant';
  status?: number;
};

const view = c.checkoutView;
const OPS: Op[] = [
  { method: 'get', path: '/v1/banks', summary: 'Bank groups of the native service (cached)', tag: 'checkout', auth: 'checkout', response: c.banksResponse },
  { method: 'get', path: '/v1/checkout', summary: 'The checkout view', tag: 'checkout', auth: 'checkout', response: view },
  { method: 'post', path: '/v1/checkout/login', summary: 'Log in at the chosen bank', tag: 'checkout', auth: 'checkout', body: c.loginBody, response: view },
  { method: 'post', path: '/v1/checkout/second-login', summary: 'Answer the second login', tag: 'checkout', auth: 'checkout', body: c.secondLoginBody, response: view },
  { method: 'post', path: '/v1/checkout/contract', summary: 'Choose a contract', tag: 'checkout', auth: 'checkout', body: c.contractBody, response: view },
  { method: 'post', path: '/v1/checkout/transfer', summary: 'Choose the account and start the transfer', tag: 'checkout', auth: 'checkout', body: c.transferBody, response: view },
  { method: 'post', path: '/v1/checkout/validate', summary: 'Answer a round of validations', tag: 'checkout', auth: 'checkout', body: c.validateBody, response: view },
  { method: 'post', path: '/v1/checkout/cancel', summary: 'Cancel the checkout', tag: 'checkout', auth: 'checkout', response: view },
  { method: 'post', path: '/v1/checkout/mode', summary: 'Choose native, redirect or periodic', tag: 'checkout', auth: 'checkout', body: m.modeBody, response: view },
  { method: 'post', path: '/v1/checkout/redirect', summary: 'Create the signed payment URL', tag: 'checkout', auth: 'checkout', response: view },
  { method: 'post', path: '/v1/checkout/periodic', summary: 'Create the signed periodic-payment URL', tag: 'checkout', auth: 'checkout', body: c.periodicBody, response: view },
  { method: 'post', path: '/v1/checkouts', summary: 'Create a checkout (Idempotency-Key supported)', tag: 'merchant', auth: 'merchant', body: m.createCheckoutBody, status: 201 },
  { method: 'get', path: '/v1/checkouts/{id}', summary: 'Read a checkout', tag: 'merchant', auth: 'merchant' },
  { method: 'post', path: '/v1/checkouts/{id}/resolve', summary: 'Reconcile an unknown checkout', tag: 'merchant', auth: 'merchant', body: m.resolveBody },
  { method: 'post', path: '/v1/links', summary: 'Signed payment URL', tag: 'merchant', auth: 'merchant', body: m.linkBody, status: 201 },
  { method: 'post', path: '/v1/links/periodic', summary: 'Signed periodic-payment URL', tag: 'merchant', auth: 'merchant', body: m.periodicLinkBody(Date.now), status: 201 },
  { method: 'post', path: '/v1/links/periodic/cancel', summary: 'Signed periodic-cancellation URL', tag: 'merchant', auth: 'merchant', body: m.cancelPeriodicBody, status: 201 },
  { method: 'get', path: '/v1/orders', summary: 'Payment orders', tag: 'merchant', auth: 'merchant', query: m.ordersQuery(300) },
  { method: 'post', path: '/v1/orders/{id}/enable', summary: 'Enable an order', tag: 'merchant', auth: 'merchant' },
  { method: 'post', path: '/v1/orders/{id}/disable', summary: 'Disable an order', tag: 'merchant', auth: 'merchant' },
  { method: 'get', path: '/v1/link-banks', summary: 'Banks of the payment-link service', tag: 'merchant', auth: 'merchant', query: m.linkBanksQuery },
  { method: 'post', path: '/v1/legacy/links', summary: 'Earlier signer variant', tag: 'merchant', auth: 'merchant', status: 201 },
  { method: 'get', path: '/v1/legacy/debts', summary: 'Earlier orders query', tag: 'merchant', auth: 'merchant', query: m.ordersQuery(null) },
  { method: 'post', path: '/v1/legacy/links/{id}/enable', summary: 'Earlier enable', tag: 'merchant', auth: 'merchant' },
  { method: 'post', path: '/v1/legacy/links/{id}/disable', summary: 'Earlier disable', tag: 'merchant', auth: 'merchant' },
  { method: 'get', path: '/v1/notifications', summary: 'Received notifications', tag: 'merchant', auth: 'merchant', query: m.notificationsQuery },
  { method: 'post', path: '/v1/notifications/provider', summary: 'Result notification from the provider (form or JSON)', tag: 'provider' },
  { method: 'post', path: '/v1/return/ok', summary: 'Payer returning after success: verified, then 303', tag: 'provider', status: 303 },
  { method: 'post', path: '/v1/return/error', summary: 'Payer returning after failure: verified, then 303', tag: 'provider', status: 303 },
];

const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPS) {
    const parameters: unknown[] = [];
    if (op.path.includes('{id}')) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
    if (op.query) {
      const q = schema(op.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(q.properties ?? {})) parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema: s });
    }
    if (op.path === '/v1/checkouts' && op.method === 'post') parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 128 } });
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      tags: [op.tag],
      ...(op.auth ? { security: [{ [op.auth === 'checkout' ? 'checkoutSecret' : 'merchantBearer']: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schema(op.body) } } } } : {}),
      responses: {
        [String(op.status ?? 200)]: {
          description: 'OK',
          ...(op.response ? { content: { 'application/json': { schema: schema(op.response) } } } : {}),
        },
        default: { description: 'Error', content: { 'application/json': { schema: schema(c.errorBody) } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'bank-checkout BFF', version: '1.0.0', description: 'Checkout API for the elements, merchant API, provider callbacks.' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        checkoutSecret: { type: 'apiKey', in: 'header', name: 'X-Checkout-Secret' },
        merchantBearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
