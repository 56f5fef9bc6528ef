/**
 * What a store left behind: every row of every table (SQLite file or PostgreSQL schema), and
 * the SQLite files' raw bytes, where rows overwritten later may still linger.
 */
import { existsSync, readFileSync } from 'node:fs';
import Database from 'libsql';
import pg from 'pg';
import type { Sample } from './canary.js';

/** Every row of every table of a SQLite file, one sample per table, and the files' bytes. */
export function dumpSqlite(file: string): { samples: Sample[]; rows: Record<string, Record<string, unknown>[]> } {
  const db = new Database(file, { readonly: true });
  const rows: Record<string, Record<string, unknown>[]> = {};
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) rows[name] = db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
  const samples: Sample[] = Object.entries(rows).map(([table, r]) => ({ where: `SQLite table ${table}`, text: JSON.stringify(r) }));
  for (const suffix of ['', '-wal', '-journal', '-shm']) {
    if (existsSync(file + suffix)) samples.push({ where: `SQLite file bytes ${file}${suffix}`, text: readFileSync(file + suffix).toString('latin1') });
  }
  return { samples, rows };
}

/** Every row of every table of a PostgreSQL schema, one sample per table. */
export async function dumpPostgres(url: string, schema: string): Promise<{ samples: Sample[]; rows: Record<string, Record<string, unknown>[]> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows: Record<string, Record<string, unknown>[]> = {};
  try {
    const tables = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    for (const { table_name } of tables.rows) {
      rows[table_name] = (await client.query(`SELECT * FROM "${schema}"."${table_name}"`)).rows as Record<string, unknown>[];
    }
  } finally {
    await client.end();
  }
  return { samples: Object.entries(rows).map(([table, r]) => ({ where: `PostgreSQL table ${table}`, text: JSON.stringify(r) })), rows };
}
