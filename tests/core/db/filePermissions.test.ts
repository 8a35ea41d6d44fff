import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { tempDir } from '../../helpers/tmp';

// The data folder holds what a buyer watched and considered bidding on: other users of the computer may not read it.
describe.runIf(process.platform !== 'win32')('data file permissions', () => {
  it('creates the data folder for its user only (0700) and the database and its WAL for its user only (0600)', () => {
    const t = tempDir();
    const dir = join(t.dir, 'lotwatch');
    const path = join(dir, 'lotwatch.sqlite');
    const db = openDatabase(path);
    try {
      db.prepare('SELECT 1').get();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of [path, `${path}-wal`, `${path}-shm`]) expect([f, statSync(f).mode & 0o777]).toEqual([f, 0o600]);
    } finally {
      db.close();
      t.cleanup();
    }
  });
});
