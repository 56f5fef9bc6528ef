/** Starts bench/lib/servers.ts in a child process and waits for its URLs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cliArgs } from '../../test/support/cli.mjs';

/** The server process's memory, in bytes (process.memoryUsage, plus the peak RSS since the last sample). */
export interface MemorySample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  peakRss: number;
  /** Whether a full garbage collection ran first (needs `nodeArgs: ['--expose-gc']`). */
  collected: boolean;
}

export interface Servers {
  sandboxUrl: string;
  /** The bare relay's address (`BENCH_ROLE=relay`). */
  relayUrl?: string;
  bffUrl: string;
  clientSecret: string;
  merchantSecret: string;
  child: ChildProcess;
  /** The server process's memory; `gc` runs a full collection first. */
  memory(gc?: boolean): Promise<MemorySample>;
  /** The server process's CPU time so far (`process.cpuUsage()`, µs). */
  cpu(): Promise<{ user: number; system: number }>;
  /** Starts the server process's CPU profiler, or (`file` given) stops it and writes the profile there. */
  profile(file?: string): Promise<void>;
  stop(): void;
}

export interface StartOptions {
  /** Node flags of the server process, e.g. `--expose-gc`. */
  nodeArgs?: string[];
}

export function startServers(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<Servers> {
  const root = new URL('../..', import.meta.url).pathname;
  // The repository's sources (their export condition), whatever the parent was started with;
  // under `npm test`, the servers compiled with the tests (test/support/cli.mjs).
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--conditions=bank-checkout-source', ...cliArgs('bench/lib/servers.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // The channel must not keep this process alive on its own.
  child.channel?.unref();

  // Answers come back in order; the channel keeps this process alive only while one is awaited.
  const pending: { type: string; resolve(m: never): void; reject(e: Error): void }[] = [];
  const settled = () => {
    if (pending.length === 0) child.channel?.unref();
  };
  child.on('message', (msg: { type?: string }) => {
    const i = pending.findIndex((p) => p.type === msg?.type);
    if (i < 0) return;
    pending.splice(i, 1)[0]!.resolve(msg as never);
    settled();
  });
  const ask = <T>(type: string, extra: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      if (!child.connected) return reject(new Error('the server process is gone'));
      pending.push({ type, resolve: resolve as (m: never) => void, reject });
      child.channel?.ref();
      child.send({ type, ...extra });
    });
  const memory = (gc = false) => ask<MemorySample>('memory', { gc });
  const cpu = () => ask<{ user: number; system: number }>('cpu');
  const profile = (file?: string) =>
    ask<{ file?: string; error?: string }>('profile', file ? { file } : {}).then(({ error }) => {
      if (error) throw new Error(`profile: ${error}`);
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('servers did not start in 30 s')), 30_000);
    child.on('exit', (code) => {
      const err = new Error(`servers exited with ${code}`);
      for (const p of pending.splice(0)) p.reject(err);
      reject(err);
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve({
        ...(JSON.parse(line) as Omit<Servers, 'child' | 'stop' | 'memory' | 'cpu' | 'profile'>),
        child,
        memory,
        cpu,
        profile,
        stop: () => child.kill('SIGTERM'),
      });
    });
  });
}
