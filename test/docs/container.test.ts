/**
 * The container as the repository ships it (Dockerfile, compose.yaml), against the BFF's own
 * figures: compose gives a stop at least as long as the BFF may take to stop (its grace for the
 * calls with the bank and its close, read from packages/bff/src/server.ts for the provider timeout
 * compose runs it with); docs/running.md says the same figure; the image's base is pinned by
 * digest, its runtime installed with `npm ci` from a lockfile, run as the user `node`. No
 * container tool builds the image here (docs/running.md says why).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CLOSE_MS, loadConfig, STOP_MARGIN_MS, stopBoundMs } from '@bank-checkout/bff';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** A compose duration (`30s`, `1m30s`, `45000ms`) in milliseconds. */
function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  assert.ok(parts.length && parts.map((p) => p[0]).join('') === text, `a duration: ${text}`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
  return parts.reduce((sum, [, n, u]) => sum + Number(n) * unit[u as keyof typeof unit], 0);
}

/** The `bff` service's block of compose.yaml. */
const bffService = () => /\n {2}bff:\n([\s\S]*?)(?=\n {2}\w[\w-]*:\n|\nvolumes:|$)/.exec(read('compose.yaml'))?.[1] ?? '';

describe('the container', () => {
  it("gives the BFF at least as long to stop as it may take: compose's stop_grace_period against its grace and close", () => {
    const service = bffService();
    const grace = /\n\s+stop_grace_period:\s*(\S+)/.exec(service)?.[1];
    assert.ok(grace, 'compose.yaml gives the bff service a stop_grace_period');
    // The provider timeout compose runs the BFF with: its environment's, else bff.env.example's, else the default.
    const env: Record<string, string> = {};
    for (const m of read('bff.env.example').matchAll(/^(PROVIDER_TIMEOUT_MS)=(\d+)/gm)) env[m[1]!] = m[2]!;
    const inCompose = /\n\s+PROVIDER_TIMEOUT_MS:\s*'?(\d+)'?/.exec(service)?.[1];
    if (inCompose) env.PROVIDER_TIMEOUT_MS = inCompose;
    const config = loadConfig({ ...env, DATABASE_URL: ':memory:' });
    const bound = stopBoundMs(config);
    assert.equal(bound, config.provider.timeoutMs + STOP_MARGIN_MS + CLOSE_MS);
    assert.ok(durationMs(grace) >= bound, `stop_grace_period ${grace} is shorter than a stop may take (${bound / 1000} s)`);
  });

  it('docs/running.md says how long a stop takes, as the BFF computes it, and how to size a supervisor from PROVIDER_TIMEOUT_MS', () => {
    const doc = read('docs/running.md');
    const byDefault = stopBoundMs(loadConfig({ DATABASE_URL: ':memory:' })) / 1000;
    const added = (STOP_MARGIN_MS + CLOSE_MS) / 1000;
    assert.ok(
      doc.includes(`\`PROVIDER_TIMEOUT_MS\` + ${added} s (${byDefault} s by default)`),
      `the stop's bound: PROVIDER_TIMEOUT_MS + ${added} s, ${byDefault} s by default`,
    );
    assert.match(doc, /stop_grace_period/);
  });

  it('builds on a base pinned by digest, installs the runtime with npm ci from the lockfile the build wrote, and runs as node', () => {
    const dockerfile = read('Dockerfile');
    assert.match(dockerfile, /^ARG NODE_IMAGE=node:24-bookworm-slim@sha256:[0-9a-f]{64}$/m);
    const [build = '', runtime = ''] = dockerfile.split(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    assert.match(build, /npm install --package-lock-only/);
    assert.match(runtime, /COPY --from=build \/runtime\/package\.json \/runtime\/package-lock\.json/);
    assert.match(runtime, /npm ci --omit=dev/);
    assert.doesNotMatch(runtime, /npm install/, 'nothing floats at run time');
    assert.match(runtime, /^USER node$/m);
    assert.match(runtime, /^CMD \["node", "dist\/cli\.js"\]$/m);
  });
});
