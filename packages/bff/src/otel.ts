/**
 * The OpenTelemetry Node SDK for `bank-checkout-bff`, started when the standard variables ask for
 * it: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or one per signal) or an exporter
 * (`OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`: `otlp`, `prometheus`, `console`), unless
 * `OTEL_SDK_DISABLED=true`. The SDK reads every other standard variable itself
 * (`OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` by default, `http/json`, `grpc`;
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`…).
 *
 * What the CLI decides beside them: a signal with neither an exporter nor an endpoint of its own
 * exports nothing (a Prometheus scrape alone sends no traces anywhere); no OpenTelemetry logs
 * (the BFF writes its own log lines); the service is `bank-checkout-bff` unless
 * `OTEL_SERVICE_NAME` says otherwise; the Prometheus scrape (`OTEL_METRICS_EXPORTER=prometheus`,
 * port `OTEL_EXPORTER_PROMETHEUS_PORT`, 9464) listens on the BFF's own `HOST` unless
 * `OTEL_EXPORTER_PROMETHEUS_HOST` says otherwise; no automatic instrumentation (the BFF's own
 * spans say what it does, and nothing else of a request is recorded: telemetry.ts).
 *
 * `@opentelemetry/sdk-node` is an optional peer dependency of `@bank-checkout/bff`, loaded only
 * here and only then: a server that mounts the BFF neither installs nor loads it (docs/running.md).
 */

type Env = Record<string, string | undefined>;

const set = (env: Env, name: string) => Boolean(env[name]?.trim());
const named = (env: Env, name: string) => set(env, name) && env[name]!.trim().toLowerCase() !== 'none';

/** Whether the standard variables ask for telemetry. */
export function otelWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return (
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'].some((n) => set(env, n)) ||
    named(env, 'OTEL_TRACES_EXPORTER') ||
    named(env, 'OTEL_METRICS_EXPORTER')
  );
}

/** The variables the SDK is started with: the operator's, and the CLI's defaults where they said nothing. */
export function otelEnv(env: Env, host: string): Env {
  const out: Env = {};
  const endpoint = (signal: 'TRACES' | 'METRICS') => set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') || set(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
  if (!set(env, 'OTEL_TRACES_EXPORTER') && !endpoint('TRACES')) out.OTEL_TRACES_EXPORTER = 'none';
  if (!set(env, 'OTEL_METRICS_EXPORTER') && !endpoint('METRICS')) out.OTEL_METRICS_EXPORTER = 'none';
  if (!set(env, 'OTEL_LOGS_EXPORTER')) out.OTEL_LOGS_EXPORTER = 'none';
  if (!set(env, 'OTEL_SERVICE_NAME')) out.OTEL_SERVICE_NAME = 'bank-checkout-bff';
  if (!set(env, 'OTEL_EXPORTER_PROMETHEUS_HOST')) out.OTEL_EXPORTER_PROMETHEUS_HOST = host;
  return out;
}

/** Raised when the variables ask for telemetry and the SDK is not installed. */
export class OtelMissing extends Error {}

/**
 * Starts the SDK (registering its providers, context manager and W3C propagators for the whole
 * process) when `env` asks for it; null otherwise. Its errors (an export that failed) are written
 * to `warn`, one line each.
 */
export async function startOtel(env: Env, host: string, warn: (line: string) => void): Promise<{ shutdown(): Promise<void> } | null> {
  if (!otelWanted(env)) return null;
  Object.assign(env, otelEnv(env, host));
  let sdk: typeof import('@opentelemetry/sdk-node');
  let api: typeof import('@opentelemetry/api');
  try {
    [sdk, api] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/api')]);
  } catch {
    throw new OtelMissing(
      'the OTEL_* variables ask for telemetry, and @opentelemetry/sdk-node is not installed beside @bank-checkout/bff: npm install @opentelemetry/sdk-node (or set OTEL_SDK_DISABLED=true)',
    );
  }
  api.diag.setLogger(
    {
      // A scrape before the resource's detectors have answered is answered all the same: no line for it.
      error: (message) => (message.startsWith('Accessing resource attributes before async attributes settled') ? undefined : warn(`telemetry: ${message}`)),
      warn: () => {},
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    api.DiagLogLevel.ERROR,
  );
  const node = new sdk.NodeSDK({ instrumentations: [] });
  node.start();
  return node;
}
