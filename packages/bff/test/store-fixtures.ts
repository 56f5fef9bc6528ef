/**
 * What the tests of the store share: a checkout record to write, and PostgreSQL for a suite
 * when TEST_DATABASE_URL names one (each suite in a schema of its own, dropped at the end).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CheckoutRecord } from '../src/store/types.js';

let seq = 0;
/** A name no other test uses, in this run or an earlier one (a database outlives its run). */
export const unique = (prefix: string) => `${prefix}_${++seq}_${randomBytes(4).toString('hex')}`;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The instant a record is made at unless told otherwise. */
export const RECORD_AT = 1_700_000_000_000;

/**
 * A native checkout at the bank list, as the store keeps it: a fresh id, secret hash and
 * reference each time; made at `createdAt` (updated then, expiring 30 minutes later) unless
 * `overrides` says otherwise.
 */
export function checkoutRecord(overrides: Partial<CheckoutRecord> = {}): CheckoutRecord {
  const id = overrides.id ?? unique('chk');
  const at = overrides.createdAt ?? RECORD_AT;
  return {
    id,
    secretHash: sha256(`secret-${id}`),
    mode: 'native',
    state: 'select-bank',
    version: 1,
    amount: 1250,
    subject: 'Order 42',
    reference: unique('ref'),
    holderDestiny: 'Shop S.L.',
    accountDestiny: 'ES9121000418450200051332',
    customData: null,
    urlOk: 'https://shop.example/ok',
    urlError: null,
    modes: ['native', 'redirect'],
    attemptsLeft: 3,
    createdAt: at,
    updatedAt: at,
    expiresAt: at + 30 * 60_000,
    internal: {},
    error: null,
    ...overrides,
  };
}

/** How to give the tests a database: the script that starts one, and the URL it serves. */
const START_POSTGRES =
  'Start PostgreSQL with `bash scripts/postgres-test.sh` and run with TEST_DATABASE_URL=postgres://bank_checkout:bank_checkout@127.0.0.1:5432/bank_checkout_test';

/**
 * Declares the PostgreSQL tests of `what`: `declare(url)` when TEST_DATABASE_URL is set.
 * Without it, a test that fails under CI=true (CI starts PostgreSQL), and elsewhere one skipped
 * test that says how to start it.
 */
export function withPostgres(what: string, declare: (url: string) => void): void {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    declare(url);
    return;
  }
  if (process.env.CI === 'true') {
    test(`${what}: postgres needs TEST_DATABASE_URL`, () => assert.fail(`TEST_DATABASE_URL is not set. ${START_POSTGRES}.`));
    return;
  }
  const reason = 'TEST_DATABASE_URL is not set (start PostgreSQL with: bash scripts/postgres-test.sh)';
  test(`${what}: postgres skipped: ${reason}`, { skip: reason }, () => {});
}

/** A schema name for one suite: `prefix` and a random part (runs and files share the database). */
export const freshSchema = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** Drops `schemas` and all they hold from the database at `url`. */
export async function dropSchemas(url: string, ...schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
