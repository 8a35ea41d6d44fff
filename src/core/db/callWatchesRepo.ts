import type { Database, Statement } from 'better-sqlite3';
import type { CallPauseReason } from '../../shared/callWatch';
import { actingUserId, SqliteMemberNames } from './members';
import { insertedId } from './rows';
import {
  answerOf,
  lastWasBad,
  rowOf,
  runEndColumns,
  writeParams,
  type CallAnswerRow,
  type CallRunEnd,
  type CallWatchRow,
  type CallWatchWrite,
  type RawCallWatch,
  type RunEndColumns,
  type WriteParams,
} from './callWatchRows';

export type { CallAnswerRow, CallRunEnd, CallWatchRow, CallWatchWrite } from './callWatchRows';

/**
 * The call watches and their answers (docs/architecture.md "Call watches"). Statements are prepared once; a run's
 * writes (answer row, watch row, alerts) are grouped by the caller in one Store transaction.
 */
export class CallWatchesRepo {
  private readonly all: Statement<[], RawCallWatch>;
  private readonly one: Statement<[number], RawCallWatch>;
  private readonly insertOne: Statement<[WriteParams & { is_example: number; by: number | null }]>;
  private readonly updateOne: Statement<[WriteParams & { id: number }]>;
  private readonly deleteOne: Statement<[number]>;
  private readonly pausedSet: Statement<[number, string | null, number, number]>;
  private readonly ended: Statement<[RunEndColumns & { id: number }]>;
  private readonly insertAnswer: Statement<[number, number, number, string | null, string, number]>;
  private readonly lastGood: Statement<
    [number],
    {
      id: number;
      watch_id: number;
      at: number;
      status: number;
      body: string | null;
      extract: string;
      good: number;
    }
  >;
  private readonly lastAnswer: Statement<[number], { good: number }>;
  private readonly trimBodies: Statement<[number, number, number]>;
  private readonly deleteExamples: Statement<[]>;
  private readonly countExamples: Statement<[], { n: number }>;
  private readonly alertsSince: Statement<[string, number], { n: number }>;

  private readonly names: SqliteMemberNames;

  constructor(db: Database) {
    this.names = new SqliteMemberNames(db);
    this.all = db.prepare('SELECT * FROM call_watches ORDER BY id');
    this.one = db.prepare('SELECT * FROM call_watches WHERE id = ?');
    this.insertOne =
      db.prepare(`INSERT INTO call_watches (name, endpoint, path, query, config, schedule, rules, paused, paused_reason,
      is_example, created_at, updated_at, created_by) VALUES (@name, @endpoint, @path, @query, @config, @schedule,
      @rules, @paused, @paused_reason, @is_example, @now, @now, @by)`);
    this.updateOne =
      db.prepare(`UPDATE call_watches SET name = @name, endpoint = @endpoint, path = @path, query = @query,
      config = @config, schedule = @schedule, rules = @rules, paused = @paused, paused_reason = @paused_reason,
      updated_at = @now WHERE id = @id`);
    this.deleteOne = db.prepare('DELETE FROM call_watches WHERE id = ?');
    this.pausedSet = db.prepare(`UPDATE call_watches SET paused = ?, paused_reason = ?,
      consecutive_failures = CASE WHEN paused_reason = 'failing' THEN 0 ELSE consecutive_failures END,
      updated_at = ? WHERE id = ?`);
    this.ended = db.prepare(`UPDATE call_watches SET last_run_at = @at,
      last_ok_at = CASE WHEN @ok = 1 THEN @at ELSE last_ok_at END, last_status = @status,
      consecutive_failures = @consecutive_failures, last_error = @last_error, refused_params = @refused_params,
      paused = CASE WHEN @paused_reason IS NULL THEN paused ELSE 1 END,
      paused_reason = COALESCE(@paused_reason, paused_reason) WHERE id = @id`);
    this.insertAnswer = db.prepare(
      'INSERT INTO call_answers (watch_id, at, status, body, extract, good) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.lastGood = db.prepare(
      'SELECT * FROM call_answers WHERE watch_id = ? AND good = 1 ORDER BY id DESC LIMIT 1',
    );
    this.lastAnswer = db.prepare('SELECT good FROM call_answers WHERE watch_id = ? ORDER BY id DESC LIMIT 1');
    this.trimBodies = db.prepare(`UPDATE call_answers SET body = NULL WHERE watch_id = ? AND body IS NOT NULL
      AND id < coalesce((SELECT id FROM call_answers WHERE watch_id = ? AND body IS NOT NULL ORDER BY id DESC
      LIMIT 1 OFFSET ?), 0)`);
    this.deleteExamples = db.prepare('DELETE FROM call_watches WHERE is_example = 1');
    this.countExamples = db.prepare('SELECT count(*) AS n FROM call_watches WHERE is_example = 1');
    this.alertsSince = db.prepare(
      "SELECT count(*) AS n FROM alerts WHERE source = ? AND created_at > ? AND status <> 'suppressed'",
    );
  }

  /** Every call watch, oldest first. */
  list(): CallWatchRow[] {
    return this.all.all().map(rowOf);
  }

  /** One call watch, or null when there is none with this id. */
  get(id: number): CallWatchRow | null {
    const r = this.one.get(id);
    return r ? rowOf(r) : null;
  }

  /**
   * Saves a new call watch (validated by the caller) as the member the call acts for (`created_by`); returns its
   * id. `example`: Demo mode's example.
   */
  create(w: CallWatchWrite, now: number, example = false): number {
    const by = actingUserId();
    return insertedId(this.insertOne.run({ ...writeParams(w, now), is_example: example ? 1 : 0, by }));
  }

  /** Rewrites a call watch's call, config, schedule, rules and pause (validated by the caller). */
  update(id: number, w: CallWatchWrite, now: number): void {
    this.updateOne.run({ ...writeParams(w, now), id });
  }

  /** Deletes a call watch and its answers (ON DELETE CASCADE). */
  remove(id: number): void {
    this.deleteOne.run(id);
  }

  /** Pauses (by `reason`) or resumes; resuming a watch that paused itself clears its failure count. */
  setPaused(id: number, paused: boolean, reason: CallPauseReason, now: number): void {
    this.pausedSet.run(paused ? 1 : 0, paused ? reason : null, now, id);
  }

  /** Stores the end of a run on the watch row; `paused_reason` set: the watch pauses itself. */
  runEnded(id: number, e: CallRunEnd): void {
    this.ended.run({ id, ...runEndColumns(e) });
  }

  /**
   * Stores one answer: its status, the body as received (JSON text, or null when there is none to keep), the extract
   * the diff reads, and whether it was good. Then keeps `body` on the last `kept` answers with a body only.
   */
  addAnswer(
    watchId: number,
    a: { at: number; status: number; body: string | null; extract: string; good: boolean },
    kept: number,
  ): void {
    this.insertAnswer.run(watchId, a.at, a.status, a.body, a.extract, a.good ? 1 : 0);
    this.trimBodies.run(watchId, watchId, Math.max(0, kept - 1));
  }

  /** The last good answer of a watch (the diff's `prev`), or null before the first. */
  lastGoodAnswer(watchId: number): CallAnswerRow | null {
    const r = this.lastGood.get(watchId);
    return r ? answerOf(r) : null;
  }

  /** Whether the last stored answer of a watch was a bad one (a run of bad answers alerts once). */
  lastAnswerBad(watchId: number): boolean {
    return lastWasBad(this.lastAnswer.get(watchId));
  }

  /** Alerts a poll target (`call:<id>`) raised after `since` (ms) that were not suppressed. */
  alertsOf(source: string, since: number): number {
    return this.alertsSince.get(source, since)!.n;
  }

  /** Demo mode's example call watches: how many there are. */
  exampleCount(): number {
    return this.countExamples.get()!.n;
  }

  /**
   * The names of the members `ids` (the call watches' `created_by`) by id, for the views; an id with no `users` row
   * is left out. No query for none (the desktop).
   */
  memberNames(ids: readonly number[]): Map<number, string> {
    return this.names.of(ids);
  }

  /** Removes Demo mode's example call watches (with their answers). */
  removeExamples(): void {
    this.deleteExamples.run();
  }
}
