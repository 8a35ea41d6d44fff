import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselySettings } from '../../../../src/core/db/kysely/settingsRepo';
import { SettingsRepo, type SettingsSource } from '../../../../src/core/db/settingsRepo';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';
import { engines, type EngineDb } from '../../../helpers/engines';
import { FakeClock } from '../../../helpers/fakeClock';

// The settings' contract (src/core/db/settingsRepo.ts defines it) on every engine: SettingsRepo on the SQLite file,
// KyselySettings over SQLite and over PostgreSQL give the same settings for the same writes, defaults applied field by
// field, and a second reader of the same database sees what the first wrote.

for (const e of engines()) {
  describe.skipIf(e.skip)(`settings on ${e.name}`, () => {
    let d: EngineDb;
    const clock = new FakeClock(1_000);
    /** A reader of the engine's database, loaded (KyselySettings reads once, then keeps what it wrote). */
    const open = async (): Promise<SettingsSource> => {
      if (!d.exec) return new SettingsRepo(d.sqlite!.db, clock);
      const s = new KyselySettings(d.exec, d.name === 'postgres' ? 'postgres' : 'sqlite', clock);
      await s.load();
      return s;
    };
    beforeEach(async () => {
      d = await e.open();
    });
    afterEach(async () => {
      await d.close();
    });

    it('reads the defaults from an empty table, then what was written, in a reader opened later too', async () => {
      const s = await open();
      expect(s.get()).toEqual(DEFAULT_SETTINGS);
      expect(s.value('requestsPerDay')).toBe(DEFAULT_SETTINGS.requestsPerDay);
      const next = await s.update({ theme: 'dark', requestsPerDay: 40, watchPausedUntil: 5_000 });
      expect(next).toMatchObject({ theme: 'dark', requestsPerDay: 40, watchPausedUntil: 5_000 });
      expect(s.value('theme')).toBe('dark');
      const later = await open();
      expect(later.get()).toEqual(next);
      await later.update({ theme: 'light' });
      expect(later.value('theme')).toBe('light');
      expect(later.value('requestsPerDay')).toBe(40);
    });

    it('keeps the default of a damaged or unknown row, field by field', async () => {
      const k = d.kysely ?? null;
      if (k) {
        await k
          .insertInto('settings')
          .values([
            { key: 'theme', value: '{not json', updated_at: 1 },
            { key: 'requestsPerDay', value: '"many"', updated_at: 1 },
            { key: 'noSuchSetting', value: '1', updated_at: 1 },
            { key: 'notificationsEnabled', value: 'false', updated_at: 1 },
          ])
          .execute();
      } else {
        const ins = d.sqlite!.db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 1)');
        ins.run('theme', '{not json');
        ins.run('requestsPerDay', '"many"');
        ins.run('noSuchSetting', '1');
        ins.run('notificationsEnabled', 'false');
      }
      const s = await open();
      expect(s.get()).toEqual({ ...DEFAULT_SETTINGS, notificationsEnabled: false });
      expect(s.value('theme')).toBe(DEFAULT_SETTINGS.theme);
      expect(s.value('requestsPerDay')).toBe(DEFAULT_SETTINGS.requestsPerDay);
    });
  });
}
