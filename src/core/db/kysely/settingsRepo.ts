import type { Settings, SettingsPatch } from '../../../shared/settings';
import type { Clock } from '../../clock';
import { settingOf, settingRows, settingsOf, type SettingsSource } from '../settingsRepo';
import { upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * The settings on a team's store (SettingsSource; settingsRepo.ts defines the meaning): read once by `load` and kept
 * in memory, so core's synchronous reads never wait on the network; `update` writes through in one transaction, then
 * keeps the new values. Defaults apply field by field as on the desktop (settingsOf).
 */
export class KyselySettings implements SettingsSource {
  private rows = new Map<string, string>();

  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
    private readonly clock: Clock,
  ) {}

  /** Reads every stored setting. @throws the driver's error (the last values read stay). */
  async load(): Promise<void> {
    const rows = await this.exec.db.selectFrom('settings').select(['key', 'value']).execute();
    this.rows = new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Reads every stored setting again (another server of the team changed them). @throws as `load`. */
  reload(): Promise<void> {
    return this.load();
  }

  /** One setting with its default applied, from what was last read or written. */
  value<K extends keyof Settings>(key: K): Settings[K] {
    return settingOf(key, this.rows.get(key) ?? null);
  }

  /** All settings with defaults applied, from what was last read or written. */
  get(): Settings {
    return settingsOf([...this.rows].map(([key, value]) => ({ key, value })));
  }

  /**
   * Writes the given fields in one transaction and resolves to the new settings. `patch` must be validated.
   * @throws the driver's error (nothing of the patch is kept).
   */
  async update(patch: SettingsPatch): Promise<Settings> {
    const now = this.clock.now();
    const rows = settingRows(patch);
    await this.exec.transaction(async () => {
      for (const [key, value] of rows) {
        await upsert(
          this.engine,
          this.exec.db.insertInto('settings').values({ key, value, updated_at: now }),
          ['key'],
          ['value', 'updated_at'],
        ).execute();
      }
    });
    for (const [key, value] of rows) this.rows.set(key, value);
    return this.get();
  }
}
