/** Starts bench/lib/servers.ts in a child process and waits for its URLs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Servers {
  sandboxUrl: string;
  bffUrl: string;
  clientSecret: string;
  merchantSecret: string;
  child: ChildProcess;
  stop(): void;
}

export function startServers(env: Record<string, string> = {}): Promise<Servers> {
  const root = new URL('../..', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/servers.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('servers did not start in 30 s')), 30_000);
    child.on('exit', (code) => reject(new Error(`servers exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve({ ...(JSON.parse(line) as Omit<Servers, 'child' | 'stop'>), child, stop: () => child.kill('SIGTERM') });
    });
  });
}
