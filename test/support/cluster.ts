/**
 * Several BFF instances on a PostgreSQL server of their own, as an operator runs them, for the
 * suites that make the database misbehave under them (test/faults/failover.test.ts, the outage
 * drill of test/drills/): a private PostgreSQL server (initdb in a temporary directory, a free
 * port; the shared test database is never touched) that can be stopped, started, frozen and have
 * its connections cut, and BFF processes started through the real CLI.
 *
 * Needs PostgreSQL 15's server binaries (/usr/lib/postgresql/15/bin, or PG_BIN).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliArgs } from './cli.mjs';
import { until } from '../../packages/bff/test/until.js';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const HAVE_PG = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
/** Why a suite that needs the server binaries is skipped (outside CI; under CI=true their absence fails it). */
export const NO_PG_REASON = `PostgreSQL server binaries not found in ${PG_BIN} (apt-get install postgresql, or set PG_BIN)`;
const ROOT = new URL('../../', import.meta.url).pathname;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface PrivatePostgresOptions {
  /** Names the temporary directory (`<prefix>XXXXXX`). */
  prefix?: string;
  maxConnections?: number;
}

/**
 * A private PostgreSQL server: initdb into a temporary directory, as `postgres` when run as root.
 * Starting and stopping it do not block this process, which serves the simulator and the
 * merchant's receiver (and whose idle connections to the instances must see them close).
 */
export async function privatePostgres({ prefix = 'bc-failover-pg-', maxConnections = 60 }: PrivatePostgresOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o777);
  }
  const command = (bin: string, args: string[]): [string, string[]] => {
    const cmd = [join(PG_BIN, bin), ...args];
    return asRoot ? ['su', ['postgres', '-s', '/bin/sh', '-c', cmd.map((a) => `'${a}'`).join(' ')]] : [cmd[0]!, cmd.slice(1)];
  };
  const run = async (bin: string, args: string[]): Promise<string> => {
    const [file, argv] = command(bin, args);
    try {
      return (await promisify(execFile)(file, argv, { encoding: 'utf8' })).stdout;
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${bin} failed: ${e.stderr || e.stdout || e.message}`);
    }
  };
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=${maxConnections}`,
      'start',
    ]);
  const stop = () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']);
  await start();
  const psql = (sql: string, db = 'postgres') =>
    spawnSync(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-Atc', sql], { encoding: 'utf8' });
  const created = psql('CREATE DATABASE bank_checkout');
  if (created.status !== 0) throw new Error(`psql: ${created.stderr}`);
  /** Every process of the server: the postmaster (its pid file's first line) and its children. */
  const processes = (): number[] => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          // The parent's pid is the fourth field, after the command in parentheses.
          return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
        } catch {
          return false; // gone meanwhile
        }
      })
      .map(Number);
    return [postmaster, ...children];
  };
  const signal = (pids: number[], sig: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // gone meanwhile
      }
    }
  };
  let frozen: number[] = [];
  /** Cleanup when `close` cannot run (the process ends on a signal or a timeout): an immediate stop, and the directory removed. */
  const closeSync = () => {
    if (frozen.length) signal(frozen, 'SIGCONT');
    const [file, argv] = command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    if (existsSync(join(data, 'postmaster.pid'))) spawnSync(file, argv, { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/bank_checkout`,
    start,
    stop,
    /**
     * Freezes the server as a stalled machine would (SIGSTOP to every process of it): connections
     * stay open, nothing answers. The postmaster first, so that no new backend starts meanwhile.
     * Returns how many processes it stopped.
     */
    freeze(): number {
      const [postmaster, ...children] = processes();
      signal([postmaster!], 'SIGSTOP');
      frozen = [postmaster!, ...children, ...processes().slice(1)];
      signal(frozen, 'SIGSTOP');
      return new Set(frozen).size;
    },
    thaw() {
      signal(frozen, 'SIGCONT');
      frozen = [];
    },
    /** Cuts every connection of the BFFs (pg_terminate_backend); how many were cut. */
    sweep: () =>
      Number(
        psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'bank_checkout' AND pid <> pg_backend_pid()").stdout.trim() || 0,
      ),
    /** Rows of a query on the BFFs' database, as psql's unaligned lines (fields split by `|`); throws when it fails. */
    query(sql: string): string[][] {
      const res = psql(sql, 'bank_checkout');
      if (res.status !== 0) throw new Error(`psql: ${res.stderr}`);
      return res.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('|'));
    },
    async close() {
      if (frozen.length) signal(frozen, 'SIGCONT');
      await stop().catch(() => null); // already stopped
      rmSync(dir, { recursive: true, force: true });
    },
    closeSync,
  };
}

export type PrivatePostgres = Awaited<ReturnType<typeof privatePostgres>>;

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exited: { code: number | null; signal: NodeJS.Signals | null } | null;
}

/** A BFF process through its CLI, as a supervisor runs it, once it listens. */
export async function bffProcess(name: string, env: Record<string, string>): Promise<Instance> {
  return listening(spawnBff(name, env));
}

/** A BFF process through its CLI, started: its output and its exit are recorded as they come. */
export function spawnBff(name: string, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '--conditions=bank-checkout-source', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const inst: Instance = { name, url: '', child, output: [], exited: null };
  const onData = (chunk: Buffer) => inst.output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', (code, signal) => (inst.exited = { code, signal }));
  return inst;
}

/** `inst` once it says it listens (its URL set); throws with its output when it exits first. */
export async function listening(inst: Instance, timeoutMs = 30_000): Promise<Instance> {
  const line = await until(
    () => inst.output.find((l) => l.startsWith('bff: listening on ')) ?? (inst.exited ? `exited:${inst.output.join('\n')}` : null),
    `${inst.name} to listen`,
    timeoutMs,
  );
  if (line.startsWith('exited:')) throw new Error(`${inst.name} did not start: ${line}`);
  inst.url = /http:\/\/[^ ]+/.exec(line)![0];
  return inst;
}
