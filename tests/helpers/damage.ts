import BetterSqlite3 from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';

/**
 * Real damage to real SQLite files, for the data-safety tests: what a failing disk, a sync tool or a full disk does,
 * without mocking SQLite.
 */

/**
 * A Lotwatch data file with `rows` settings rows of ~200 bytes each (enough for the table to span many pages), closed
 * cleanly through closeDatabase as the app closes it.
 */
export function fillDatabase(path: string, rows = 2000): void {
  const db = openDatabase(path);
  const insert = db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`filler.${i}`, JSON.stringify('x'.repeat(200)), i);
  })();
  closeDatabase(db);
}

/** The root page number (1-based) of a table, read from the schema. */
export function rootPageOf(path: string, table: string): number {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db
      .prepare<[string], { rootpage: number }>('SELECT rootpage FROM sqlite_master WHERE name = ?')
      .get(table)!.rootpage;
  } finally {
    db.close();
  }
}

/** Overwrites one whole page (1-based, 4096 bytes) with a fixed garbage pattern, as a bad sector would. */
export function corruptPage(path: string, page: number, pageSize = 4096): void {
  const fd = openSync(path, 'r+');
  try {
    const garbage = Buffer.alloc(pageSize);
    for (let i = 0; i < pageSize; i++) garbage[i] = (i * 131 + 7) & 0xff;
    writeSync(fd, garbage, 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

/** sha256 of a file's bytes: what "Lotwatch did not change it" means. */
export function sha(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Makes a file unwritable for this process and returns the undo, or null when this system cannot: as a normal user a
 * 0444 mode does it; root ignores modes, so as root the file is made immutable (`chattr +i`, ext4 and most local
 * file systems), which root cannot write either.
 */
export function makeUnwritable(path: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    chmodSync(path, 0o444);
    return () => chmodSync(path, 0o600);
  }
  const r = spawnSync('chattr', ['+i', path]);
  if (r.status !== 0) return null;
  return () => void spawnSync('chattr', ['-i', path]);
}
