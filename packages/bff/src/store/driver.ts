/**
 * The minimal SQL driver the store is written over (sql.ts), and what its statements are: the
 * SQLite and PostgreSQL engines each implement it. Statements use `?` placeholders; a driver
 * rewrites them if needed.
 */
import type { Store } from './types.js';

export type SqlValue = string | number | null;
export type Row = Record<string, unknown>;
export interface Statement {
  sql: string;
  args: SqlValue[];
  /** The rows this statement must change; otherwise the transaction rolls back with StaleWrite. */
  expectChanges?: number;
}

/** A checked statement of a transaction changed another number of rows: nothing was written. */
export class StaleWrite extends Error {
  override readonly name = 'StaleWrite';
}

export interface SqlDriver {
  readonly engine: Store['engine'];
  /** Column type for the JSON documents. */
  readonly jsonType: string;
  /**
   * The SQL expression of a change's position (`change_seq`), evaluated in the statement that
   * writes the change, greater than the position of any change committed before it.
   */
  readonly changeSeq: string;
  /**
   * The SQL condition a change's position (`change_seq`) meets once no transaction still open
   * can commit a change at or before it (empty when commits follow the positions' order).
   */
  readonly settledChange: string;
  /**
   * Only this process writes the database (the embedded engine): checkouts read back are kept
   * in memory, written through on every change, so a read by secret costs no query.
   */
  readonly singleWriter: boolean;
  /** One statement on its own; `count` is the number of rows it changed. */
  query(sql: string, args?: SqlValue[]): Promise<{ rows: Row[]; count: number }>;
  /** The first row of a read, or null. */
  first(sql: string, args?: SqlValue[]): Promise<Row | null>;
  /** All statements in one transaction: every one applies, or none does. */
  transaction(statements: Statement[]): Promise<void>;
  /**
   * Brings the schema up to date (migrations.ts): the plan's statements in one transaction,
   * under a lock that other instances booting at once wait for; all apply, or none does.
   */
  migrate(plan: MigrationPlan): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a driver runs, in one transaction under its migration lock: `prepare` (the version
 * table), then `readVersion` (one row, `version`: the highest applied, null when none), then the
 * statements `steps` gives for that version. `steps` refuses a database newer than this code (an
 * older BFF must not write a schema it does not know).
 */
export interface MigrationPlan {
  prepare: string[];
  readVersion: string;
  steps(version: number | null): Statement[];
}
