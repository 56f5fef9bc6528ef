/**
 * docs/merchant-api.md, generated from the BFF's OpenAPI document (every merchant operation, its
 * parameters, body fields and answers) and from the BFF's own sources (error codes, limits).
 * `npm run docs:api` writes it; test/docs/merchant-api.test.ts regenerates it and fails when the
 * checked-in file differs, so a new route or field reaches the reference with its change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_ERRORS, BFF_ERROR_CODES, ERROR_CATEGORIES, PROVIDER_ERROR_CODES } from '@bank-checkout/contract';
import { webhookEventBody } from '@bank-checkout/contract/schemas';
import { z } from 'zod';
import { createBff, loadConfig } from '../packages/bff/src/index.js';
import { RETRY_DELAYS_MS } from '../packages/bff/src/webhook.js';

const root = new URL('..', import.meta.url).pathname;
export const REFERENCE_PATH = join(root, 'docs/merchant-api.md');

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  additionalProperties?: boolean | Schema;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
type Document = { info: { version: string }; paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const code = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;

/** A schema in a few words: its type, its values, its bounds. */
function describe(doc: Document, s: Schema | undefined, depth = 0): string {
  if (!s) return 'any';
  if (s.$ref) return describe(doc, doc.components?.schemas?.[s.$ref.split('/').pop()!], depth);
  const parts: string[] = [];
  if (s.const !== undefined) parts.push(code(s.const));
  else if (s.enum) parts.push(s.enum.map(code).join(', '));
  else if (s.oneOf ?? s.anyOf) parts.push([...new Set((s.oneOf ?? s.anyOf)!.map((o) => describe(doc, o, depth + 1)))].join(' or '));
  else if (s.allOf) parts.push(s.allOf.map((o) => describe(doc, o, depth + 1)).join(' and '));
  else {
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const main = types.filter((t) => t !== 'null');
    let t = main.join(' or ') || 'any';
    if (main.includes('array')) t = `array of ${describe(doc, s.items, depth + 1)}`;
    if (main.includes('object') && depth > 0) t = 'object';
    parts.push(types.includes('null') ? `${t} or null` : t);
  }
  const bounds: string[] = [];
  if (s.minLength !== undefined || s.maxLength !== undefined) bounds.push(`${s.minLength ?? 0}–${s.maxLength ?? '…'} characters`);
  if (s.minItems !== undefined || s.maxItems !== undefined) bounds.push(`${s.minItems ?? 0}–${s.maxItems ?? '…'} items`);
  if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
  // A whole number's own limits (zod's safe-integer bounds) say nothing to a reader.
  if (s.minimum !== undefined && s.minimum !== Number.MIN_SAFE_INTEGER) bounds.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum !== Number.MAX_SAFE_INTEGER) bounds.push(`≤ ${s.maximum}`);
  if (s.pattern) bounds.push(`pattern ${code(s.pattern)}`);
  if (s.format) bounds.push(s.format);
  if (s.default !== undefined) bounds.push(`default ${code(s.default)}`);
  return bounds.length ? `${parts.join('')} (${bounds.join(', ')})` : parts.join('');
}

/** The fields of an object schema as table rows, nested objects as `a.b` (two levels). */
function fields(doc: Document, s: Schema | undefined, prefix = '', depth = 0): string[] {
  if (!s) return [];
  if (s.$ref) return fields(doc, doc.components?.schemas?.[s.$ref.split('/').pop()!], prefix, depth);
  const props = s.properties ?? {};
  const rows: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const required = s.required?.includes(name) ? 'yes' : 'no';
    rows.push(`| \`${prefix}${name}\` | ${cell(describe(doc, p, 1))} | ${required} | ${cell(p.description ?? '')} |`);
    const inner = p.type === 'array' ? p.items : p;
    if (depth < 1 && inner?.properties) rows.push(...fields(doc, inner, `${prefix}${name}${p.type === 'array' ? '[]' : ''}.`, depth + 1));
  }
  return rows;
}

const FIELD_HEADER = ['| Field | Type | Required | Notes |', '|---|---|---|---|'];

/** The webhook's events, from the contract's schema: each type, what it says, and the fields of its `data`. */
function webhookEvents(): string[] {
  const out: string[] = [];
  for (const option of webhookEventBody.options) {
    const schema = z.toJSONSchema(option, { io: 'output', unrepresentable: 'any' }) as Schema & { properties: Record<string, Schema> };
    const type = String(schema.properties.type!.const);
    out.push(
      `**\`${type}\`**: ${schema.description ?? ''}`,
      '',
      ...FIELD_HEADER,
      ...fields({ info: { version: '' }, paths: {} }, schema.properties.data, 'data.'),
      '',
    );
  }
  return out;
}

/** The reference, as markdown. */
export async function merchantApiReference(): Promise<string> {
  const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' });
  const bff = createBff(config);
  let doc: Document;
  try {
    doc = (await (await bff.request('http://127.0.0.1/v1/openapi.json')).json()) as Document;
  } finally {
    await bff.close();
  }
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.tags?.includes('merchant'))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const out: string[] = [];
  const line = (...l: string[]) => out.push(...l);
  line(
    '# Merchant API reference',
    '',
    `<!-- Generated by \`npm run docs:api\` from the BFF's OpenAPI document (version ${doc.info.version}) and its sources; do not edit by hand. -->`,
    '',
    "The merchant API is what your shop's server calls, server to server. The BFF serves the same",
    'operations as an OpenAPI 3.1 document at `/v1/openapi.json` (for client generators); in',
    'TypeScript, `createMerchantClient` from `@bank-checkout/bff/client` has a typed call for each',
    '([packages/bff/README.md](../packages/bff/README.md)); from PHP or Python see',
    '[other-languages.md](other-languages.md).',
    '',
    '## Authentication',
    '',
    'Every operation needs `Authorization: Bearer <BFF_MERCHANT_SECRET>`. Generate the secret with',
    '`npx bank-checkout-bff secret` and keep it on your servers only; a wrong one is a 401',
    '`unauthorized`.',
    '',
    '## Errors',
    '',
    'Every error has one shape, `{"error": {"code", "message", "requestId", "issues?"}}`; `issues[]`',
    '(`{path, message}`) names each field a 422 refused. Send `requestId` along when asking for help.',
    'A request refused with an error changed nothing.',
    '',
    '| Code | HTTP | Meaning |',
    '|---|---|---|',
    ...Object.entries(API_ERRORS)
      .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
      .map(([c, e]) => `| \`${c}\` | ${e.status} | ${cell(e.meaning)} |`),
    '',
    "A checkout's own `error` (in a checkout's `error.code`, and a webhook's `data`) is one of these",
    "codes: the provider's " + PROVIDER_ERROR_CODES.map(code).join(', ') + ' and ' + BFF_ERROR_CODES.map(code).join(', ') + '. Their categories:',
    '',
    '| Code | Category |',
    '|---|---|',
    ...Object.entries(ERROR_CATEGORIES).map(([c, cat]) => `| \`${c}\` | ${cat} |`),
    '',
    '## Idempotency-Key',
    '',
    '`POST /v1/checkouts`, `POST /v1/links`, `POST /v1/links/periodic` and',
    '`POST /v1/links/periodic/cancel` take an optional `Idempotency-Key` header (1–128 characters).',
    'Send one per order or cart, and the same one on every retry:',
    '',
    '- The same key with the same body gives the first answer again, with status 200 instead of',
    '  201: the same checkout (and client secret), the same signed link, never a second one.',
    '- The same key with another body is refused: 409 `idempotency_mismatch`.',
    '- A retry while the first request is still running gets 409 `idempotency_in_progress` with',
    '  `Retry-After`; send it again then.',
    '- Without a key, each request creates something new: a retry after a lost answer makes a',
    "  second checkout or link. `createMerchantClient`'s `createCheckout` makes a key of its own when",
    '  you give none (one per call, the same on each of its tries), so its retries (after a network',
    '  failure, 429, 502, 503, 504 or `idempotency_in_progress`, waiting `Retry-After`) never create',
    '  twice; it never retries its other creations (links).',
    '',
    '## Rate limits',
    '',
    `- Merchant API: ${config.merchantRateLimitPerMinute} requests a minute per BFF instance for each class of call apart`,
    '  (creations, reads, updates), `MERCHANT_RATE_LIMIT_PER_MINUTE`.',
    `- Connections: a browser's address may hold ${config.maxConnectionsPerAddress} open connections (\`MAX_CONNECTIONS_PER_ADDRESS\`);`,
    '  one more is answered 503 `rate_limited` with `Retry-After: 1`. Connections whose requests carry',
    `  the merchant secret do not count there: the shop's server may hold ${config.maxMerchantConnectionsPerAddress} more`,
    '  (`MAX_MERCHANT_CONNECTIONS_PER_ADDRESS`), so a burst of creations is not refused.',
    `- Checkout API: ${config.rateLimitPerMinute} requests a minute per checkout (\`RATE_LIMIT_PER_MINUTE\`).`,
    `- Wrong secrets: after ${config.authFailuresPerMinute} from one client address in a minute at one API, a wrong one from that`,
    '  address gets 429 until the minute ends (`AUTH_FAILURES_PER_MINUTE`). The merchant secret is',
    "  compared first: your server's right secret always passes, however many wrong ones came from its",
    '  address (or through a proxy it shares). At the checkout API, past the limit, every request from',
    '  that address gets 429 until the minute ends. Behind a proxy, set `TRUST_PROXY`',
    "  ([deploy-proxy.md](deploy-proxy.md)), or every client shares the proxy's address. The",
    "  provider's notifications and the payers' returns are signed: each is verified first, so a",
    `  genuine one always passes, and only forged ones count (past ${config.authFailuresPerMinute}, a forged one gets 429); the`,
    '  returns have a count of their own.',
    '',
    'Counted answers carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds',
    'until the window ends). Past the limit the answer is 429 `rate_limited` with those headers and',
    '`Retry-After` (seconds).',
    '',
    '## Webhooks',
    '',
    'With `MERCHANT_WEBHOOK_URL` and `MERCHANT_WEBHOOK_SECRET` set, the BFF posts each event as JSON',
    '`{id, type, createdAt, data}`, written in the same transaction as the change it reports:',
    '',
    ...webhookEvents(),
    'Headers of each delivery:',
    '',
    '| Header | Value |',
    '|---|---|',
    '| `webhook-id` | the event id (`evt_…`); the same on every retry of the event |',
    '| `webhook-timestamp` | when this attempt was sent, in unix seconds |',
    '| `webhook-signature` | `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` (Standard Webhooks) |',
    '| `X-Bank-Checkout-Signature` | `t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the secret as text (the earlier form, still sent) |',
    '| `X-Bank-Checkout-Event-Id`, `-Event-Type`, `-Event-Created` | the event id, type and creation time |',
    '',
    'The `webhook-signature` key is the base64 part of a `whsec_…` secret, decoded; a secret without',
    'that prefix is its own key (UTF-8). Any Standard Webhooks library verifies it:',
    '`new Webhook(secret).verify(body, headers)`. Refuse a timestamp more than 5 minutes away.',
    '',
    `An answer other than 2xx is retried: at once, then after ${RETRY_DELAYS_MS.map((ms) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`)).join(', ')}`,
    '(across restarts); then the event is marked failed. An event can arrive twice: handle each id',
    'once. `GET /v1/webhooks/events` lists events and their delivery; `POST',
    '/v1/webhooks/events/{id}/redeliver` sends one again.',
    '',
    '## Lists and the feed of changes',
    '',
    '`GET /v1/checkouts`, `GET /v1/notifications` and `GET /v1/webhooks/events` list newest first,',
    "a page at a time: pass a page's `next` as `cursor` to read the next one; `next` is null on the",
    "last page. The cursor is opaque (the last row's time and id), so rows that share a millisecond",
    'are each listed once, and a row that does not change while you page is listed exactly once. A',
    'checkout that changes meanwhile moves to the front of its list, where this walk does not come',
    'back: to learn every change, read the feed.',
    '',
    'The feed, `GET /v1/checkouts?after=0` and then `after=<next>`, gives the checkouts whose last',
    'change comes after that position, oldest change first; `next` is never null (the same position',
    'when nothing changed). Each change of a checkout (its creation, a step of the payer, an ending,',
    'your cancel or decision; not a read) takes a position when it is written, and a position is',
    'given only once no change still being written can come before it (with PostgreSQL the feed',
    'waits for the transactions still open on the server, so it can lag by the longest of them). So',
    'a reader that goes on from the last `next` it got never misses a change and never reads one',
    'twice. A checkout that changed several times since your last read appears once, as it is now.',
    'Keep `next` with what you did with the page (in the same database transaction), and read on',
    'from it after a restart or an outage of your webhook endpoint: webhooks are the push, the feed',
    'is the reconciliation. Read it more often than retention deletes ended checkouts',
    '(`RETENTION_CHECKOUTS_DAYS`).',
    '',
    '## Operations',
    '',
    ...ops.map(
      (o) =>
        `- [\`${o.method} ${o.path}\`](#${`${o.method} ${o.path}`
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-')}): ${o.op.summary ?? ''}`,
    ),
  );
  for (const { path, method, op } of ops) {
    line('', `### ${method} ${path}`, '', `${op.summary ?? ''}${op.summary?.endsWith('.') ? '' : '.'}`);
    if (op.operationId) line('', `\`${op.operationId}\`: the operation's id, and the call of \`createMerchantClient\`.`);
    if (op.description) line('', op.description);
    const params = (op.parameters ?? []).filter((p) => p.in !== 'cookie');
    if (params.length) {
      line('', '| Parameter | In | Type | Required | Notes |', '|---|---|---|---|---|');
      for (const p of params)
        line(
          `| \`${p.name}\` | ${p.in} | ${cell(describe(doc, p.schema, 1))} | ${p.required ? 'yes' : 'no'} | ${cell(p.description ?? p.schema?.description ?? '')} |`,
        );
    }
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body) {
      const rows = fields(doc, body);
      line('', `Body (JSON${op.requestBody?.required ? '' : ', optional'}${body.additionalProperties === false ? '; other fields are refused' : ''}):`);
      if (rows.length) line('', ...FIELD_HEADER, ...rows);
      else line('', describe(doc, body));
    }
    const shown = new Map<string, string>();
    for (const [status, res] of Object.entries(op.responses)) {
      if (status === 'default' || status === '422') continue;
      const schema = res.content?.['application/json']?.schema;
      const same = schema && shown.get(JSON.stringify(schema));
      line('', `**${status}** ${res.description ?? ''}${same ? `: the same fields as **${same}**.` : schema ? ':' : ''}`);
      if (schema && !same) {
        shown.set(JSON.stringify(schema), status);
        const rows = fields(doc, schema);
        if (rows.length) line('', ...FIELD_HEADER, ...rows);
        else line('', describe(doc, schema));
      }
    }
    line('', 'Errors: 422 `validation_failed` for a bad request, and any error above (`{error: {code, message, requestId}}`).');
  }
  return `${out.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(REFERENCE_PATH, await merchantApiReference());
  console.log(`wrote ${REFERENCE_PATH}`);
}
