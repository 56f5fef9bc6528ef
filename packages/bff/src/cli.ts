#!/usr/bin/env node
/**
 * `bank-checkout-bff` (`npm run bff` in the repository): the BFF as a Node server, configured
 * only by environment variables. A bad configuration stops it with one line naming the
 * variable; a database that does not answer yet is waited for, one line a try, up to
 * `DATABASE_BOOT_WAIT_SECONDS` (store/boot.ts). SIGINT and SIGTERM stop it cleanly:
 * no new connections, idle kept-alive ones closed, a request arriving on an open one answered
 * 503 with `Connection: close`, the requests under way (a call with the bank among them) finish
 * and their answers are written, for at most the grace (`PROVIDER_TIMEOUT_MS` + STOP_MARGIN_MS, server.ts:
 * a call with the bank may take the whole provider timeout, then its answer is written); then
 * the webhook dispatcher, the sweeper and the store close, and the process exits 0. Supervisors
 * must give it longer than the grace before SIGKILL (systemd `TimeoutStopSec`, Kubernetes
 * `terminationGracePeriodSeconds`: docs/running.md), and should run `node …/dist/cli.js` itself:
 * npm's wrapper (`npx`, `npm run`) does not always pass the signal on.
 *
 * The other commands (commands.ts; `bank-checkout-bff --help` lists them, `<command> --help`
 * shows one and starts nothing): the operator's (`checkouts`, `resolve`, `cancel`, `events`,
 * `redeliver`, `changes`), which call the merchant API of a running BFF; `prune`, which applies
 * the retention settings once (`--dry-run`: says what would go); `secret`, which prints a new
 * random secret (256 bits, Standard Webhooks' `whsec_` form) for BFF_MERCHANT_SECRET or
 * MERCHANT_WEBHOOK_SECRET.
 *
 * Each command loads only what it runs: usage and `secret` neither the configuration nor the
 * server, the operator's commands the merchant client alone, a bad configuration stops before
 * the server's modules load, `prune` loads the store alone.
 */
import type { BffConfig } from './config.js';
import type { BffApp } from './app.js';

const { COMMANDS, commandOf, usage, runOperator } = await import('./commands.js');
const asked = commandOf(process.argv.slice(2));
// A reader that stops reading (`bank-checkout-bff changes | head`): a command has said all it
// was asked for and ends with 0, as Unix tools do; a server goes on serving without its log.
let stdoutClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  if (asked.kind === 'run' && asked.command === 'serve') {
    if (!stdoutClosed) console.error('bff: standard output was closed: log lines are no longer written');
    stdoutClosed = true;
    return;
  }
  process.exit(0);
});
if (asked.kind === 'help') {
  console.log(usage(asked.command));
  process.exit(0);
}
if (asked.kind === 'unknown') {
  console.error(`bff: unknown command ${JSON.stringify(asked.command)}\n\n${usage()}`);
  process.exit(2);
}
if (COMMANDS[asked.command]?.operator) {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  process.exit(await runOperator(asked.command, asked.args, process.env, io));
}
if (asked.command === 'secret') {
  if (asked.args.length) {
    console.error('bff: secret takes no argument (bank-checkout-bff secret --help)');
    process.exit(2);
  }
  const { newSecret } = await import('./checkout/secrets.js');
  console.log(newSecret());
  process.exit(0);
}
if (asked.command === 'serve' && asked.args.length) {
  console.error(`bff: serve takes no argument: it is configured by its environment (bank-checkout-bff serve --help)`);
  process.exit(2);
}

const fail = (message: string): never => {
  console.error(`bff: ${message}`);
  process.exit(1);
};
/** What went wrong, in the driver's words when it gave any (never a URL: drivers do not repeat it). */
const reason = (err: unknown): string =>
  err instanceof Error ? (err.cause instanceof Error ? `${err.message} ${err.cause.message}` : err.message) : String(err);

const { loadConfig, ConfigError } = await import('./config.js');
let config!: BffConfig;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}
// `bank-checkout-bff prune [--dry-run]`: the retention settings applied once (retention.ts).
if (asked.command === 'prune') {
  try {
    const { pruneCommand } = await import('./retention.js');
    console.log(`bff: ${await pruneCommand(config, asked.args)}`);
    process.exit(0);
  } catch (err) {
    fail(`prune: ${reason(err)}`);
  }
}
// Traces and metrics, when the standard OTEL_* variables ask for them (otel.ts): started before
// the BFF is made, so that its meters and tracers are the SDK's.
const { startOtel, OtelMissing } = await import('./otel.js');
let otel: Awaited<ReturnType<typeof startOtel>> = null;
try {
  otel = await startOtel(process.env, config.host, (line) => console.error(`bff: ${line}`));
} catch (err) {
  if (err instanceof OtelMissing) fail(err.message);
  throw err;
}
const [{ createBff }, { serveBff, serveOptionsOf, stopGraceMs, stopBoundMs }] = await Promise.all([import('./app.js'), import('./server.js')]);
let app!: BffApp;
try {
  app = createBff(config);
  const { openStoreAtBoot } = await import('./store/boot.js');
  await openStoreAtBoot({
    open: () => app.parts.store.init(),
    deadlineMs: config.database.bootWaitMs,
    onWait: (w) =>
      console.error(
        `bff: the store does not answer yet (${w.reason}); trying again in ${(w.nextInMs / 1000).toFixed(1)} s (${Math.ceil(w.leftMs / 1000)} s left of DATABASE_BOOT_WAIT_SECONDS)`,
      ),
  });
} catch (err) {
  fail(`the store could not start (DATABASE_URL): ${reason(err)}`);
}
const served = serveBff(app.fetch, { ...serveOptionsOf(config), onUnavailable: (cause) => app.parts.telemetry.unavailable(cause) });
const { server, listening } = served;
server.on('error', (err) => fail(`cannot listen on ${config.host}:${config.port} (PORT, HOST): ${reason(err)}`));
const info = await listening;
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  const graceMs = stopGraceMs(config);
  console.log(`bff: ${signal}: stopping (${served.inFlight()} requests under way, ${graceMs / 1000} s at most)`);
  // A store that does not close (it stalled) does not hold the exit past its own bound.
  setTimeout(() => process.exit(0), stopBoundMs(config)).unref();
  void served
    .drain(graceMs)
    .then(({ cut }) => {
      if (cut) console.error(`bff: ${cut} requests were still under way after ${graceMs / 1000} s and were cut`);
    })
    .then(() => app.close())
    // What telemetry still holds is sent before the exit (within the bound above).
    .then(() => otel?.shutdown())
    .catch((err: unknown) => console.error(`bff: stopping: ${reason(err)}`))
    .finally(() => process.exit(0));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// Announced once the signals are handled: a supervisor that reads the line may stop it at once.
console.log(`bff: listening on http://${config.host}:${info.port} (provider ${config.provider.env}, store ${app.parts.store.engine})`);
