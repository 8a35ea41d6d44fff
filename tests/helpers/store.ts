import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { SqliteStore } from '../../src/core/db/store';
import { tempDir } from './tmp';

/**
 * A real data file opened for a test: its connection, the store over it (the async repositories as core calls them,
 * and `s.sync` for a test's own setup and checks) and its path.
 */
export interface TestStore {
  db: Database;
  s: SqliteStore;
  path: string;
}

/**
 * For a test file whose tests each open data files (call at its top level): returns `openStore()`, a real SQLite data
 * file with every migration run, in a fresh temp folder, and the SqliteStore over it. After each test the connections are
 * closed as the app closes them and the folders removed.
 */
export function storesPerTest(): () => TestStore {
  const open: { db: Database; cleanup(): void }[] = [];
  afterEach(() => {
    for (const o of open.splice(0)) {
      closeDatabase(o.db);
      o.cleanup();
    }
  });
  return () => {
    const t = tempDir();
    const path = join(t.dir, 'lotwatch.sqlite');
    const db = openDatabase(path);
    open.push({ db, cleanup: t.cleanup });
    return { db, s: new SqliteStore(db), path };
  };
}
