import type { Database, Statement } from 'better-sqlite3';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '../../shared/settings';
import type { Clock } from '../clock';

/**
 * The buyer's settings as core reads them, on either engine: synchronous reads (asked on every scheduling decision),
 * a write that may answer with a promise (the team's store writes through its pool). SettingsRepo (SQLite) and
 * KyselySettings (kysely/settingsRepo.ts) implement it.
 */
export interface SettingsSource {
  /** One setting with its default applied. */
  value<K extends keyof Settings>(key: K): Settings[K];
  /** All settings with defaults applied. */
  get(): Settings;
  /** Writes the given fields in one transaction and returns the new settings. `patch` must be validated. */
  update(patch: SettingsPatch): Settings | Promise<Settings>;
  /**
   * Reads the stored settings again, where they are kept in memory over a store other processes write too (a team's
   * PostgreSQL: another server of the team changed them). Absent where reads go to the file every time.
   * @throws the driver's error (the last values read stay).
   */
  reload?(): Promise<void>;
}

/** One stored setting (`value`: its row's JSON, or null without a row) with its default applied. Pure. */
export function settingOf<K extends keyof Settings>(key: K, value: string | null): Settings[K] {
  if (value === null) return DEFAULT_SETTINGS[key];
  try {
    const parsed = SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, [key]: JSON.parse(value) });
    return parsed.success ? parsed.data[key] : DEFAULT_SETTINGS[key];
  } catch {
    return DEFAULT_SETTINGS[key];
  }
}

/** All settings from their stored rows, defaults applied field by field (a damaged row keeps its default). Pure. */
export function settingsOf(rows: readonly { key: string; value: string }[]): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    if (!(row.key in DEFAULT_SETTINGS)) continue;
    try {
      const candidate = { ...DEFAULT_SETTINGS, [row.key]: JSON.parse(row.value) };
      const parsed = SettingsSchema.safeParse(candidate);
      if (parsed.success) out[row.key] = (parsed.data as Record<string, unknown>)[row.key];
    } catch {
      // A damaged row keeps its default.
    }
  }
  return out as Settings;
}

/** The rows a validated patch writes: key and JSON value of each field it sets. Pure. */
export function settingRows(patch: SettingsPatch): [string, string][] {
  return Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, JSON.stringify(v)]);
}

/**
 * Settings stored one row per key, the value as JSON. Unknown or invalid stored values fall back to their
 * defaults field by field, so a damaged row never stops the app.
 */
export class SettingsRepo implements SettingsSource {
  private readonly selectAll: Statement<[], { key: string; value: string }>;
  private readonly selectOne: Statement<[string], { value: string }>;
  private readonly upsert: Statement<[string, string, number]>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.selectAll = db.prepare('SELECT key, value FROM settings');
    this.selectOne = db.prepare('SELECT value FROM settings WHERE key = ?');
    this.upsert = db.prepare(
      'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ' +
        'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
  }

  /**
   * One setting with its default applied, read from its own row: for values asked on every scheduling decision
   * (the buyer's pause), where `get` would parse every row. A damaged row reads as the default, as in `get`.
   */
  value<K extends keyof Settings>(key: K): Settings[K] {
    return settingOf(key, this.selectOne.get(key)?.value ?? null);
  }

  /** All settings with defaults applied. */
  get(): Settings {
    return settingsOf(this.selectAll.all());
  }

  /** Writes the given fields in one transaction and returns the new settings. `patch` must be validated. */
  update(patch: SettingsPatch): Settings {
    const now = this.clock.now();
    this.db.transaction(() => {
      for (const [k, v] of settingRows(patch)) this.upsert.run(k, v, now);
    })();
    return this.get();
  }
}
