/**
 * `npm run bench:keepalive`: how many calls to the provider meet a kept-alive connection the
 * server has closed. Starts the simulator (its CLI, Node's server: idle connections closed after
 * 5 s, `Keep-Alive: timeout=5`) in a child process, and calls it from this one with a native
 * client, as the BFF does: BENCH_KEEPALIVE_WORKERS (250) callers, each calling `banks/list` and
 * then waiting a random 0 to 6 s, so connections sit free for every length around the server's
 * timeout, for BENCH_KEEPALIVE_SECONDS (40). This process's event loop is kept busy
 * BENCH_KEEPALIVE_STALL ms (1200) of every BENCH_KEEPALIVE_EVERY ms (50), as a loaded instance's
 * is: timers run late. The simulator answers every call it receives, so every `network` outcome
 * is a call sent on a connection the server had closed (a reset). Prints the counts as JSON.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createNativeClient } from '@bank-checkout/provider';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const workers = num('BENCH_KEEPALIVE_WORKERS', 250);
const seconds = num('BENCH_KEEPALIVE_SECONDS', 40);
const stall = num('BENCH_KEEPALIVE_STALL', 1200);
const every = num('BENCH_KEEPALIVE_EVERY', 50);
const root = new URL('..', import.meta.url).pathname;

const child = spawn(process.execPath, ['--import', 'tsx', 'packages/sandbox/src/cli.ts'], {
  cwd: root,
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<string>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = /listening on (http:\/\/\S+)/.exec(line);
    if (m) resolve(m[1]!);
  });
});

try {
  const outcomes: Record<string, number> = {};
  const client = createNativeClient({
    baseUrl: base,
    env: 'test',
    apiKey: 'sandbox-api-key',
    apiToken: 'sandbox-api-token',
    onCall: (e) => (outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1),
  });
  const busy = setInterval(() => {
    const until = performance.now() + stall;
    while (performance.now() < until);
  }, every);
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        await client.banksList().catch(() => null);
        await new Promise((r) => setTimeout(r, Math.random() * 6_000));
      }
    }),
  );
  clearInterval(busy);
  const calls = Object.values(outcomes).reduce((a, b) => a + b, 0);
  const resets = outcomes.network ?? 0;
  console.log(JSON.stringify({ workers, seconds, stall, every, calls, resets, percent: Number(((resets / calls) * 100).toFixed(2)), outcomes }));
} finally {
  child.kill('SIGTERM');
}
