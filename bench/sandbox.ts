/**
 * `npm run bench:sandbox`: the simulator's own throughput. Starts `npm run sandbox` (the CLI)
 * on a free port in a child process, checks that `POST /test/banks/list` answers 200, then
 * runs autocannon against it (1 s warm-up, then BENCH_SECONDS, default 5, with
 * BENCH_CONNECTIONS, default 10) and prints requests/s, p50 and p99 latency (autocannon
 * measures latency in whole milliseconds, so a fast answer shows as "< 1 ms").
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const root = new URL('..', import.meta.url).pathname;

const child = spawn(process.execPath, ['--import', 'tsx', 'packages/sandbox/src/cli.ts'], {
  cwd: root,
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});

function listening(): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulator did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
}

try {
  const base = await listening();
  const target: autocannon.Options = {
    url: `${base}/test/banks/list`,
    method: 'POST',
    headers: { 'X-Api-Key': 'sandbox-api-key', Authorization: 'sandbox-api-token', 'Content-Type': 'application/json' },
    body: '{}',
  };
  const probe = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const probeBody = (await probe.json().catch(() => null)) as { status?: string; listBanks?: unknown[] } | null;
  if (probe.status !== 200 || probeBody?.status !== '200') {
    console.error(`POST /test/banks/list answered HTTP ${probe.status} ${JSON.stringify(probeBody)?.slice(0, 200)}; nothing to measure`);
    process.exitCode = 1;
  } else {
    const bytes = JSON.stringify(probeBody).length;
    await autocannon({ ...target, duration: 1, connections }); // warm-up
    const r = await autocannon({ ...target, duration: seconds, connections });
    console.log(`\nsimulator POST /test/banks/list (${bytes} bytes, ${probeBody.listBanks?.length ?? 0} bank groups)`);
    console.log(`${seconds} s, ${connections} connections, loopback, client and server sharing the machine's cores`);
    console.log(`requests/s  ${r.requests.average.toFixed(0)}`);
    // autocannon's latency histogram counts whole milliseconds.
    const ms = (v: number) => (v < 1 ? '< 1 ms' : `${v.toFixed(0)} ms`);
    console.log(`latency p50 ${ms(r.latency.p50)}`);
    console.log(`latency p99 ${ms(r.latency.p99)}`);
    console.log(`errors      ${r.errors + r.timeouts + r.non2xx} (of ${r.requests.total} requests)`);
    process.exitCode = r.errors + r.timeouts + r.non2xx === 0 ? 0 : 1;
  }
} finally {
  child.kill('SIGTERM');
}
