/**
 * Traces and metrics, through the OpenTelemetry API alone: nothing is recorded unless an SDK is
 * registered (`bank-checkout-bff` starts one when the standard `OTEL_*` variables are set:
 * otel.ts; a server that mounts the BFF registers its own) or the app is given providers.
 *
 * Traces: a server span per request (`GET /v1/checkout`, named by its route), a client span per
 * provider call (`provider native transfer/validate`), and the checkout's id on both. A
 * `traceparent` is taken from the shop's server only (a request with the merchant secret): a
 * browser's or the provider's starts a trace of its own. The provider is sent the trace's
 * `traceparent` and `tracestate`, nothing else of the context (no baggage).
 *
 * What a span or a metric carries is chosen here, field by field: a route, never a path (a hand-off
 * link's path is its token), never a header, a body, a query, a credential, a code the payer typed
 * or the provider's session and transaction ids (test/security/canaries.test.ts looks for them).
 *
 * Metrics (docs/running.md has a collector's configuration and a dashboard's queries):
 * - `bank_checkout.checkouts` (counter): checkouts that entered a state, by `state` and `mode` (a
 *   creation counts in its first state);
 * - `bank_checkout.provider.duration` (histogram, s): provider calls by `service`, `operation` and
 *   `outcome` (`ok`, the provider's code, or the fault: `timeout`, `network`…);
 * - `bank_checkout.unavailable` (counter): answers 503, by `cause` (the error code, or
 *   `connection_cap` and `stopping` from the Node server);
 * - `bank_checkout.leases.taken_over` (counter): checkouts' locks whose holder did not renew them,
 *   settled by time, by `op` and what became of the checkout (`to`: `unknown` or `released`);
 * - `bank_checkout.outbox.deliveries` (counter): webhook deliveries, by `type` and `outcome`
 *   (`delivered`, `failed`: retried later, `gave_up`); `bank_checkout.outbox.lag` (histogram,
 *   s): from an event's writing to its delivery;
 * - `http.server.request.duration` (histogram, s): requests by method, route and status.
 */
import {
  context,
  createContextKey,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TracerProvider,
} from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { CallEvent, CallTrace } from '@bank-checkout/provider';
import type { CheckoutRecord } from './store/types.js';
import { errorCodeOf } from './errors.js';
import { BFF_VERSION } from './version.js';

/** Providers to record with instead of the registered ones (a test's, or a server's own). */
export interface TelemetryProviders {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
}

const SCOPE = '@bank-checkout/bff';

/** What a request's context holds: its span, and the checkout it turned out to be about. */
const REQUEST = createContextKey('bank-checkout request');
interface RequestScope {
  span: Span;
  checkoutId?: string;
}

/** Fault kinds of the provider's clients, and the provider's own codes (a letter and three digits): anything else is `other`. */
const FAULTS = new Set(['ok', 'timeout', 'network', 'aborted', 'too-large', 'http', 'body', 'schema']);
const outcomeOf = (outcome: string) => (FAULTS.has(outcome) || /^[A-Z]\d{3}$/.test(outcome) ? outcome : 'other');

/** Reads a request's headers for the propagator. */
const headersGetter: TextMapGetter<Headers> = {
  keys: (h) => [...h.keys()],
  get: (h, key) => h.get(key) ?? undefined,
};

export function createTelemetry(providers: TelemetryProviders = {}) {
  const tracer = (providers.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, BFF_VERSION);
  const meter = (providers.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, BFF_VERSION);
  const checkouts = meter.createCounter('bank_checkout.checkouts', {
    valueType: ValueType.INT,
    description: 'Checkouts that entered a state (a creation counts in its first state)',
  });
  const providerDuration = meter.createHistogram('bank_checkout.provider.duration', {
    unit: 's',
    description: 'Calls to the provider, by service, operation and outcome',
    advice: { explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30] },
  });
  const unavailable = meter.createCounter('bank_checkout.unavailable', { valueType: ValueType.INT, description: 'Answers 503, by cause' });
  const takenOver = meter.createCounter('bank_checkout.leases.taken_over', {
    valueType: ValueType.INT,
    description: "Checkouts' locks not renewed by their holder, settled by time",
  });
  const deliveries = meter.createCounter('bank_checkout.outbox.deliveries', {
    valueType: ValueType.INT,
    description: 'Webhook deliveries, by type and outcome',
  });
  const lag = meter.createHistogram('bank_checkout.outbox.lag', {
    unit: 's',
    description: "From a webhook event's writing to its delivery",
    advice: { explicitBucketBoundaries: [0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800, 3600, 14_400, 86_400] },
  });
  const httpDuration = meter.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Requests served, by method, route and status',
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20] },
  });

  const scope = () => context.active().getValue(REQUEST) as RequestScope | undefined;

  return {
    /**
     * The server span of each request, and its duration. `fromShop` tells a request of the shop's
     * server (the merchant secret): only its `traceparent` is taken.
     */
    serverSpans(fromShop: (req: Request) => boolean): MiddlewareHandler {
      return async (c, next) => {
        const method = c.req.method;
        const started = performance.now();
        const parent =
          c.req.raw.headers.has('traceparent') && fromShop(c.req.raw) ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, headersGetter) : ROOT_CONTEXT;
        const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
        const request: RequestScope = { span };
        try {
          await context.with(trace.setSpan(parent, span).setValue(REQUEST, request), next);
        } finally {
          const route = routePath(c, -1);
          const status = c.res.status;
          const code = errorCodeOf(c.req.raw);
          span.updateName(`${method} ${route}`);
          span.setAttributes({ 'http.route': route, 'http.response.status_code': status, ...(code ? { 'bank_checkout.error_code': code } : {}) });
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          if (status === 503) unavailable.add(1, { cause: code ?? 'unknown' });
          httpDuration.record((performance.now() - started) / 1000, {
            'http.request.method': method,
            'http.route': route,
            'http.response.status_code': status,
          });
        }
      };
    },

    /** The checkout the request under way is about: an attribute of its span and of its provider calls' spans. */
    checkout(id: string): void {
      const request = scope();
      if (!request || request.checkoutId === id) return;
      request.checkoutId = id;
      request.span.setAttribute('bank_checkout.checkout_id', id);
    },

    /** A provider call starting (the provider clients' `onStart`): its span, and the trace's headers for the provider. */
    providerCall(call: { service: CallEvent['service']; endpoint: string }): CallTrace {
      const parent = context.active();
      const checkoutId = scope()?.checkoutId;
      const span = tracer.startSpan(
        `provider ${call.service} ${call.endpoint}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'bank_checkout.provider.service': call.service,
            'bank_checkout.provider.operation': call.endpoint,
            ...(checkoutId ? { 'bank_checkout.checkout_id': checkoutId } : {}),
          },
        },
        parent,
      );
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(parent, span), carrier);
      // The trace's own headers only: whatever else a propagator would add (baggage) stays here.
      const headers: Record<string, string> = {};
      if (carrier.traceparent) headers.traceparent = carrier.traceparent;
      if (carrier.tracestate) headers.tracestate = carrier.tracestate;
      return {
        headers,
        end(event) {
          const outcome = outcomeOf(event.outcome);
          span.setAttributes({ 'bank_checkout.provider.outcome': outcome, ...(event.httpStatus ? { 'http.response.status_code': event.httpStatus } : {}) });
          if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
          span.end();
          providerDuration.record(event.durationMs / 1000, { service: event.service, operation: event.endpoint, outcome });
        },
      };
    },

    /** A checkout was created, in its first state. */
    created(rec: Pick<CheckoutRecord, 'id' | 'state' | 'mode'>): void {
      checkouts.add(1, { state: rec.state, mode: rec.mode });
    },

    /**
     * A change of a checkout was written (door.ts): a new state is counted; a lock that time took
     * from a holder that did not renew it is a lease taken over.
     */
    changed(from: CheckoutRecord, to: CheckoutRecord, source: string): void {
      if (to.state !== from.state) checkouts.add(1, { state: to.state, mode: to.mode });
      const lock = from.internal.busy;
      if (lock && source === 'time' && to.internal.busy?.token !== lock.token)
        takenOver.add(1, { op: lock.op, to: to.state === 'unknown' ? 'unknown' : 'released' });
    },

    /** A 503 given outside the app (the Node server: a connection over its cap, a stop under way). */
    unavailable(cause: 'connection_cap' | 'stopping'): void {
      unavailable.add(1, { cause });
    },

    /** A webhook delivery tried: its outcome, and for one delivered, how long after its event was written. */
    delivery(type: string, outcome: 'delivered' | 'failed' | 'gave_up', lagMs?: number): void {
      deliveries.add(1, { type, outcome });
      if (outcome === 'delivered' && lagMs !== undefined) lag.record(Math.max(0, lagMs) / 1000, { type });
    },
  };
}

export type Telemetry = ReturnType<typeof createTelemetry>;
