import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError, UNREACHABLE_MESSAGES } from '../../../src/core/api/errors';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { WatchesRepo } from '../../../src/core/db/watchesRepo';
import { AlertRulesSchema } from '../../../src/shared/watch';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a watch\'s stale "could not reach the service" error', () => {
  it('is forgotten once the service answers again; other errors stay (a real SQLite file)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lotwatch-stale-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'lotwatch.sqlite'));
    try {
      const repo = new WatchesRepo(db);
      const add = (lot: string) =>
        repo.insertWatch(
          {
            kind: 'lot',
            vin: null,
            lot_key: `copart:${lot}`,
            label: '',
            rules: AlertRulesSchema.parse({}),
            is_example: false,
          },
          NOW,
        );
      const [net, slow, refused] = [add('50313411'), add('50313412'), add('50313413')];
      repo.watchFailed(net, NOW, new NetworkError('/api/v1/vehicle', null).message);
      repo.watchFailed(slow, NOW, new TimeoutError('/api/v1/vehicle', 30_000).message);
      repo.watchFailed(refused, NOW, 'The service refused the API key.');
      expect(repo.clearErrorsStartingWith(UNREACHABLE_MESSAGES)).toBe(2);
      expect(repo.getWatch(net)?.last_error).toBeNull();
      expect(repo.getWatch(slow)?.last_error).toBeNull();
      expect(repo.getWatch(refused)?.last_error).toBe('The service refused the API key.');
      expect(repo.clearErrorsStartingWith(UNREACHABLE_MESSAGES)).toBe(0);
    } finally {
      closeDatabase(db);
    }
  });
});
