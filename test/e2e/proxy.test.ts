/**
 * The BFF behind nginx, configured with the `location` block of docs/deploy-proxy.md: requests
 * go through the proxy, `TRUST_PROXY=1` tells two clients apart by the address nginx appended
 * (a guesser is locked out, the shop is not), and with `TRUST_PROXY=0` everyone shares the
 * proxy's address and the BFF says so once. nginx runs as a child of the test (no daemon) on
 * free loopback ports. Outside CI the suite is skipped when nginx is not installed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBff, loadConfig, serveBff } from '@bank-checkout/bff';
import { until } from '../../packages/bff/test/until.js';
import { opened } from '../support/opened.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);
const SECRET = 'proxy-test-merchant-secret-0123456789';
const skip = NGINX ? false : process.env.CI ? false : 'nginx is not installed (apt-get install nginx); CI installs it';

/** The guide's location block, pointed at `port`. */
function guideLocation(port: number): string {
  const doc = readFileSync(new URL('../../docs/deploy-proxy.md', import.meta.url), 'utf8');
  const block = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('location /'));
  assert.ok(block, 'docs/deploy-proxy.md has the location block');
  assert.ok(block.includes('127.0.0.1:4020'));
  return block.replace('127.0.0.1:4020', `127.0.0.1:${port}`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** A request from the loopback address `from` (each client of the proxy its own address). */
function call(
  port: number,
  from: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function startBff(trustProxy: string, logs: string[]) {
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    BFF_MERCHANT_SECRET: SECRET,
    TRUST_PROXY: trustProxy,
    AUTH_FAILURES_PER_MINUTE: '5',
    LOG_LEVEL: 'warn',
  });
  const app = createBff(config, { log: (line) => logs.push(line) });
  await app.ready;
  const served = serveBff(app.fetch, { port: 0, hostname: '127.0.0.1', maxConnectionsPerAddress: config.maxConnectionsPerAddress });
  const { port } = await served.listening;
  return { port, close: () => new Promise<void>((r) => served.server.close(() => void app.close().finally(r))) };
}

describe('the BFF behind nginx (docs/deploy-proxy.md)', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bank-checkout-proxy-'));
  const trustedLogs: string[] = [];
  const untrustedLogs: string[] = [];
  let trusted: Awaited<ReturnType<typeof startBff>>;
  let untrusted: Awaited<ReturnType<typeof startBff>>;
  let nginx: ChildProcess;
  /** nginx's port in front of the BFF with TRUST_PROXY=1, and of the one with 0. */
  let toTrusted = 0;
  let toUntrusted = 0;

  before(async () => {
    trusted = await startBff('1', trustedLogs);
    untrusted = await startBff('0', untrustedLogs);
    [toTrusted, toUntrusted] = [await freePort(), await freePort()];
    const server = (listen: number, upstream: number) => `server {\n listen 127.0.0.1:${listen};\n${guideLocation(upstream)}\n}`;
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join('\n');
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off;\nmaster_process off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 64; }\nhttp {\naccess_log off;\n${temp}\n${server(toTrusted, trusted.port)}\n${server(toUntrusted, untrusted.port)}\n}\n`,
    );
    nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
    // Ready when it answers (or failed when it exits).
    await until(
      async () => {
        if (nginx.exitCode !== null) assert.fail(`nginx did not start: ${readFileSync(join(dir, 'error.log'), { encoding: 'utf8', flag: 'a+' })}`);
        return call(toTrusted, '127.0.0.1', '/health').then(
          (r) => r.status === 200,
          () => false,
        );
      },
      'nginx to answer',
      10_000,
      50,
    );
  });
  after(async () => {
    opened(nginx)?.kill('SIGTERM');
    await Promise.all([opened(trusted)?.close(), opened(untrusted)?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("the guide's server block passes `nginx -t` on this nginx (1.22: `listen … ssl http2`, not `http2 on`)", () => {
    const doc = readFileSync(new URL('../../docs/deploy-proxy.md', import.meta.url), 'utf8');
    const block = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('server_name pay.shop.example'));
    assert.ok(block, 'docs/deploy-proxy.md has the server block');
    // A certificate of its own for the test, where the guide names Let's Encrypt's files.
    const cert = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=pay.shop.example',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    assert.equal(cert.status, 0, String(cert.stderr));
    writeFileSync(join(dir, 'location.conf'), guideLocation(4020));
    const server = block
      .replace('/etc/letsencrypt/live/pay.shop.example/fullchain.pem', join(dir, 'cert.pem'))
      .replace('/etc/letsencrypt/live/pay.shop.example/privkey.pem', join(dir, 'key.pem'))
      .replace('/etc/nginx/bank-checkout-location.conf', join(dir, 'location.conf'));
    writeFileSync(join(dir, 'check.conf'), `pid ${dir}/check.pid;\nerror_log ${dir}/check.log warn;\nevents {}\nhttp {\n${server}\n}\n`);
    const check = spawnSync(NGINX!, ['-t', '-p', dir, '-c', join(dir, 'check.conf'), '-e', join(dir, 'check.log')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stderr, /syntax is ok/);
  });

  it('answers through the proxy, with the RateLimit headers', async () => {
    const res = await call(toTrusted, '127.0.0.1', '/v1/checkouts', { Authorization: `Bearer ${SECRET}` });
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers['ratelimit-limit']) > 0);
    assert.ok(Number(res.headers['ratelimit-remaining']) >= 0);
    assert.ok(Number(res.headers['ratelimit-reset']) > 0);
  });

  it('TRUST_PROXY=1: a guesser is locked out by the address nginx appended, whatever it wrote; the shop is not', async () => {
    for (let i = 0; i < 5; i++) {
      // The guesser rotates the X-Forwarded-For it writes: only nginx's entry counts.
      const r = await call(toTrusted, '127.0.0.2', '/v1/checkouts', { Authorization: `Bearer wrong-${i}`, 'X-Forwarded-For': `198.51.100.${i}` });
      assert.equal(r.status, 401);
    }
    const locked = await call(toTrusted, '127.0.0.2', '/v1/checkouts', { Authorization: 'Bearer wrong-again', 'X-Forwarded-For': '198.51.100.99' });
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
    // Another address has its own count: a wrong secret of its own is told so (401), not refused.
    assert.equal((await call(toTrusted, '127.0.0.3', '/v1/checkouts', { Authorization: 'Bearer mistyped' })).status, 401, 'another address is not locked out');
    assert.equal((await call(toTrusted, '127.0.0.3', '/v1/checkouts', { Authorization: `Bearer ${SECRET}` })).status, 200);
    assert.equal(trustedLogs.filter((l) => l.includes('proxy.not_trusted')).length, 0);
  });

  it('TRUST_PROXY=0: everyone is the proxy, so the guesser locks every address out of guessing, and the BFF warns once; the right secret still passes', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await call(toUntrusted, '127.0.0.2', '/v1/checkouts', { Authorization: `Bearer wrong-${i}` })).status, 401);
    assert.equal((await call(toUntrusted, '127.0.0.3', '/v1/checkouts', { Authorization: 'Bearer mistyped' })).status, 429);
    assert.equal((await call(toUntrusted, '127.0.0.3', '/v1/checkouts', { Authorization: `Bearer ${SECRET}` })).status, 200);
    const warnings = untrustedLogs.filter((l) => l.includes('proxy.not_trusted'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /TRUST_PROXY/);
  });
});
