import { join } from 'node:path';
import { createCore, type Core, type CoreDeps } from '../../src/core/app';
import { openDatabase } from '../../src/core/db/connection';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import { FakeClock } from './fakeClock';
import { tempDir } from './tmp';

/** A core over a real SQLite file in a fresh temp folder, on fake time. */
export function makeCore(overrides: Partial<CoreDeps> = {}): {
  core: Core;
  dir: string;
  dbPath: string;
  clock: FakeClock;
  cleanup(): Promise<void>;
} {
  const t = tempDir();
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const clock = new FakeClock();
  const core = createCore({
    db: openDatabase(dbPath),
    dbPath,
    dataDir: t.dir,
    clock,
    secrets: new FileSecretBox(join(t.dir, 'secret.key')),
    notifier: { notify() {} },
    log: silentLogger,
    shell: 'headless',
    version: '0.0.0-test',
    ...overrides,
  });
  return {
    core,
    dir: t.dir,
    dbPath,
    clock,
    async cleanup() {
      await core.dispose();
      t.cleanup();
    },
  };
}
