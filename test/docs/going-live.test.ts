/**
 * The going-live block of docs/provider.md starts a BFF: its variables, each `…` filled in with
 * a value of the kind it asks for (a fresh secret, the provider's keys, the production segment),
 * pass the going-live checks of `PROVIDER_ENV=pro`, and the BFF they configure answers
 * `/health` and `/ready`. A variable the BFF demands that the block does not name fails it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBff, loadConfig } from '@bank-checkout/bff';
import { isValidIban } from '@bank-checkout/provider';

const GUIDE = new URL('../../docs/provider.md', import.meta.url);
/** A valid Spanish IBAN that is not the simulator's demo payee. */
const IBAN = 'ES7620770024003102575766';

/** The block's `NAME=value` lines (comments and quotes dropped). */
function documentedBlock(): Record<string, string> {
  const doc = readFileSync(GUIDE, 'utf8');
  const block = /<!-- checked: test\/docs\/going-live\.test\.ts -->\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/provider.md has the going-live block, marked as checked by this test');
  const env: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const m = /^([A-Z_]+)=("[^"]*"|\S*)/.exec(line.trim());
    if (m) env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
  }
  return env;
}

/** A value of the kind `name` asks for, where the block leaves `…`. */
function fill(name: string, value: string): string {
  if (!value.includes('…')) return value;
  if (name.endsWith('_SECRET')) return `whsec_${randomBytes(32).toString('base64')}`;
  if (name === 'MERCHANT_IBAN') return IBAN;
  if (name === 'PROVIDER_NATIVE_ENV') return 'production';
  if (/^PROVIDER_.*(KEY|TOKEN)$/.test(name)) return randomBytes(24).toString('hex');
  assert.fail(`${name}=${value}: the test does not know what to fill in`);
}

describe('going live from the documented block (docs/provider.md)', () => {
  it('names every variable the BFF demands for PROVIDER_ENV=pro, and the BFF it configures starts and is ready', async () => {
    assert.ok(isValidIban(IBAN));
    const documented = documentedBlock();
    assert.equal(documented.PROVIDER_ENV, 'pro');
    const dir = mkdtempSync(join(tmpdir(), 'bank-checkout-live-'));
    try {
      const env = Object.fromEntries(Object.entries(documented).map(([k, v]) => [k, fill(k, v)]));
      // The documented file, in a directory of this test's own.
      env.DATABASE_URL = `file:${join(dir, 'bff.db')}`;
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
      assert.equal(config.provider.env, 'pro');
      const bff = createBff(config);
      try {
        await bff.ready;
        assert.equal((await bff.request('https://bff.shop.example/health')).status, 200);
        assert.equal((await bff.request('https://bff.shop.example/ready')).status, 200);
      } finally {
        await bff.close();
      }
      // Each of the block's secrets and keys is needed: without it, going live is refused, naming it.
      for (const name of ['BFF_MERCHANT_SECRET', 'PROVIDER_API_KEY', 'PROVIDER_LEGACY_API_KEY', 'ALLOWED_ORIGINS', 'BFF_PUBLIC_URL']) {
        const { [name]: _, ...without } = env;
        assert.throws(() => loadConfig({ ...without, LOG_LEVEL: 'silent' }), new RegExp(name), `${name} is needed`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
