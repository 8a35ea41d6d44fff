import type { Database, Statement } from 'better-sqlite3';
import type { AlertRules } from '../../shared/watch';
import { actingUserId, SqliteMemberNames } from './members';
import { insertedId } from './rows';
import {
  nextSaleOf,
  toWatch,
  watchInsert,
  type WatchDbRow,
  type WatchInput,
  type WatchInsert,
  type WatchRow,
} from './watchRows';

export type { WatchRow } from './watchRows';

/**
 * The watchlist (`watches`): VINs and lots the user follows, with their alert rules and the result of their
 * last check. One VIN watch per VIN and one lot watch per lot (unique indexes; a second insert throws).
 */
export class WatchesRepo {
  private readonly listAll: Statement<[], WatchDbRow>;
  private readonly getOne: Statement<[number], WatchDbRow>;
  private readonly insertOne: Statement<[WatchInsert]>;
  private readonly updateRules: Statement<
    [{ rules: string; label: string; now: number; by: number | null; id: number; expected: number | null }]
  >;
  private readonly deleteOne: Statement<[number]>;
  private readonly pauseOne: Statement<[number, number, number | null, number]>;
  private readonly checked: Statement<[number, string | null, string | null, number]>;
  private readonly failed: Statement<[number, string, number]>;
  private readonly countExamples: Statement<[], { n: number }>;
  private readonly deleteExamples: Statement<[]>;
  private readonly clearErrors: Statement<[number, string]>;
  private readonly soonest: Statement<
    [number],
    { lot_key: string; title: string | null; auction_at: number }
  >;

  private readonly names: SqliteMemberNames;

  constructor(db: Database) {
    this.names = new SqliteMemberNames(db);
    this.listAll = db.prepare('SELECT * FROM watches ORDER BY id');
    this.getOne = db.prepare('SELECT * FROM watches WHERE id = ?');
    this.insertOne =
      db.prepare(`INSERT INTO watches (kind, vin, lot_key, label, rules, is_example, created_at, updated_at,
      created_by, updated_by) VALUES (@kind, @vin, @lot_key, @label, @rules, @is_example, @now, @now, @by, @by)`);
    this.updateRules = db.prepare(`UPDATE watches SET rules = @rules, label = @label, updated_at = @now,
      updated_by = @by WHERE id = @id AND (@expected IS NULL OR updated_at = @expected)`);
    this.deleteOne = db.prepare('DELETE FROM watches WHERE id = ?');
    this.pauseOne = db.prepare('UPDATE watches SET paused = ?, updated_at = ?, updated_by = ? WHERE id = ?');
    this.checked =
      db.prepare(`UPDATE watches SET last_checked_at = ?, consecutive_failures = 0, last_error = NULL,
      lot_key = COALESCE(?, lot_key), vin = COALESCE(vin, ?) WHERE id = ?`);
    this.failed =
      db.prepare(`UPDATE watches SET last_checked_at = ?, consecutive_failures = consecutive_failures + 1,
      last_error = ? WHERE id = ?`);
    this.clearErrors = db.prepare('UPDATE watches SET last_error = NULL WHERE substr(last_error, 1, ?) = ?');
    this.countExamples = db.prepare('SELECT count(*) AS n FROM watches WHERE is_example = 1');
    this.deleteExamples = db.prepare('DELETE FROM watches WHERE is_example = 1');
    this.soonest =
      db.prepare(`SELECT l.lot_key, l.title, l.auction_at FROM watches w JOIN lots l ON l.lot_key = w.lot_key
      WHERE l.auction_at > ? ORDER BY l.auction_at LIMIT 1`);
  }

  /**
   * The watched lot whose sale comes next after `now` (ms), from the stored lots (no request): the tray's tooltip.
   * Returns null when no watched lot has a sale time ahead.
   */
  nextSale(now: number): { lot_key: string; title: string; auction_at: number } | null {
    const r = this.soonest.get(now);
    return r ? nextSaleOf(r) : null;
  }

  /** Every watch, oldest first. */
  listWatches(): WatchRow[] {
    return this.listAll.all().map(toWatch);
  }

  /** One watch, or null when there is none with this id. */
  getWatch(id: number): WatchRow | null {
    const r = this.getOne.get(id);
    return r ? toWatch(r) : null;
  }

  /**
   * Adds a watch as the member the call acts for (`created_by`); input must be validated. Returns its id. Throws
   * SqliteError for a VIN or lot watched already.
   */
  insertWatch(w: WatchInput, now: number): number {
    return insertedId(this.insertOne.run(watchInsert(w, now)));
  }

  /**
   * Replaces a watch's rules and label as the member the call acts for (`updated_by`). With `expectedUpdatedAt` (ms)
   * only while its stored `updated_at` is that (optimistic concurrency). Returns whether it was written (false: no
   * watch with this id, or it changed since).
   */
  updateWatchRules(
    id: number,
    rules: AlertRules,
    label: string,
    now: number,
    expectedUpdatedAt?: number,
  ): boolean {
    const expected = expectedUpdatedAt ?? null;
    const by = actingUserId();
    return this.updateRules.run({ rules: JSON.stringify(rules), label, now, by, id, expected }).changes > 0;
  }

  /** Pauses (`paused` true) or resumes a watch as the member the call acts for; returns whether it exists. */
  setPaused(id: number, paused: boolean, now: number): boolean {
    return this.pauseOne.run(paused ? 1 : 0, now, actingUserId(), id).changes > 0;
  }

  /** Removes a watch. */
  deleteWatch(id: number): void {
    this.deleteOne.run(id);
  }

  /** Records a successful check; a VIN watch learns its current lot, a lot watch its VIN. */
  watchChecked(id: number, now: number, lotKey: string | null, vin: string | null): void {
    this.checked.run(now, lotKey, vin, id);
  }

  /** Records a failed check: one more failure in a row, with the error's message. */
  watchFailed(id: number, now: number, message: string): void {
    this.failed.run(now, message, id);
  }

  /**
   * Forgets each watch's stored error that begins with one of `prefixes` (the "could not reach the service" kind),
   * once the service answers again: a warning that no longer holds is not left on a row. Returns how many.
   */
  clearErrorsStartingWith(prefixes: readonly string[]): number {
    let n = 0;
    for (const p of prefixes) n += this.clearErrors.run(p.length, p).changes;
    return n;
  }

  /** How many example watches there are. */
  exampleCount(): number {
    return this.countExamples.get()!.n;
  }

  /** Deletes every example watch. */
  deleteExampleWatches(): void {
    this.deleteExamples.run();
  }

  /**
   * The names of the members `ids` (the watches' `created_by` and `updated_by`) by id, for the views; an id with no
   * `users` row is left out. No query for none (the desktop). Not for the watcher's plan, which needs no names.
   */
  memberNames(ids: readonly number[]): Map<number, string> {
    return this.names.of(ids);
  }
}
