/**
 * Bytes the embedded store keeps per paid payment: the BFF's SQLite file and its write-ahead
 * log as the BFF left them, and the file alone once the log is folded into it (a checkpoint),
 * each divided by the checkouts that were paid. Read after the BFF's process has stopped.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'libsql';

export interface StorageFigures {
  /** Checkouts stored, and how many of them were paid. */
  checkouts: number;
  paid: number;
  /** The database file and its write-ahead log as the BFF left them, in bytes. */
  fileBytes: number;
  walBytes: number;
  /** The database file after a checkpoint folded the log into it, in bytes. */
  checkpointedBytes: number;
  /** A paid checkout's row, on average: its columns and its JSON document, in bytes (what is written, without the pages around it). */
  paidRowBytes: number;
}

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);

export function measureStorage(file: string): StorageFigures {
  const fileBytes = size(file);
  const walBytes = size(`${file}-wal`);
  const db = new Database(file);
  try {
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    const checkouts = count('SELECT count(*) AS n FROM checkouts');
    const paid = count("SELECT count(*) AS n FROM checkouts WHERE state = 'succeeded'");
    const paidRowBytes = count(
      "SELECT coalesce(avg(length(CAST(data AS BLOB)) + length(id) + length(secret_hash) + length(state) + length(reference) + 4 * 8), 0) AS n FROM checkouts WHERE state = 'succeeded'",
    );
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return { checkouts, paid, fileBytes, walBytes, checkpointedBytes: size(file), paidRowBytes: Math.round(paidRowBytes) };
  } finally {
    db.close();
  }
}

/** The two per-payment figures: file + log as left, and the file after a checkpoint. */
export function bytesPerPayment(s: StorageFigures): { asLeft: number; checkpointed: number } {
  const per = (bytes: number) => (s.paid ? bytes / s.paid : NaN);
  return { asLeft: per(s.fileBytes + s.walBytes), checkpointed: per(s.checkpointedBytes) };
}
