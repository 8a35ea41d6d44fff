import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { silentLogger } from '../../../src/core/log';
import { startHeadless } from '../../../src/headless/start';
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
      for (const f of [path, `${path}-wal`, `${path}-shm`])
        expect([f, statSync(f).mode & 0o777]).toEqual([f, 0o600]);
    } finally {
      db.close();
      t.cleanup();
    }
  });
});

// Every file a running Lotwatch leaves in its data folder, not only the database: the key file, the lock, the Demo
// market's saved time, the clean-close record and the backups.
describe.runIf(process.platform !== 'win32')('every file of a used data folder', () => {
  it('is readable by its user only (files 0600, folders 0700)', async () => {
    const t = tempDir();
    const renderer = tempDir();
    const dataDir = join(t.dir, 'lotwatch');
    try {
      let wall = Date.UTC(2026, 10, 23, 9, 0, 0);
      const h = await startHeadless({
        dataDir,
        rendererDir: renderer.dir,
        version: 't',
        log: silentLogger,
        demoSpeed: 60,
        wallNow: () => wall,
      });
      await h.core.ready;
      await h.core.call('key.set', { key: 'a-key-for-the-real-service' });
      await h.core.call('backups.list', {});
      wall += 60_000;
      await h.dispose();
      const modes = walk(dataDir).map(([p, dir]) => [p, statSync(p).mode & 0o777, dir ? 0o700 : 0o600]);
      expect(modes.length).toBeGreaterThan(4);
      for (const [p, mode, want] of modes) expect([p, mode]).toEqual([p, want]);
    } finally {
      t.cleanup();
      renderer.cleanup();
    }
  });
});

/** Every file and folder under `dir` (the folder itself included), with whether it is a folder. */
function walk(dir: string): [string, boolean][] {
  const out: [string, boolean][] = [[dir, true]];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push([p, false]);
  }
  return out;
}
