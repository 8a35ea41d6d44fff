import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { DailyJob } from './dailyJob';

const DAY = 86_400_000;

/**
 * What Lotwatch keeps and for how long (docs/architecture.md "Retention", README "Your data and its backups").
 * `fullRecordDays` is the buyer's setting; the others are fixed.
 */
export interface RetentionPolicy {
  /**
   * Days (from a lot's sale, or its last sight when it has no sale time) that a lot keeps every observation; after
   * them its observations collapse to one (the timeline of changes stays whole), and an ended lot nobody watches,
   * noted or tagged is slimmed to its sale result (normalised record and timeline kept for comparable sales, raw
   * record and photo addresses dropped, their count kept).
   */
  fullRecordDays: number;
  /** Days the request log and the poll runs are kept (Usage shows the last 30 days). */
  logDays: number;
  /** Days a read alert (and its channel delivery rows) is kept; unread alerts are kept until read. */
  readAlertDays: number;
}

/** The fixed parts of the policy; `fullRecordDays` comes from Settings (default 30). */
export const RETENTION_DEFAULTS: RetentionPolicy = { fullRecordDays: 30, logDays: 30, readAlertDays: 180 };

/** Rows one prune step deletes or rewrites at most, per kind: a step stays a few milliseconds, so no poll waits. */
export const PRUNE_BATCH = 500;
/** Lots one step looks at when collapsing observations or slimming lots. */
const LOT_BATCH = 100;
/** Pages one incremental_vacuum step gives back to the file system (4 MB at SQLite's 4 KB pages). */
const VACUUM_PAGES = 1_000;
/** Free space (bytes) below which the file is not compacted: reused by the next writes anyway. */
const VACUUM_MIN_FREE_BYTES = 8 * 1024 * 1024;

/** What one whole retention pass removed (rows) and gave back to the disk (bytes). */
export interface PruneResult {
  observations: number;
  requestLog: number;
  pollRuns: number;
  alerts: number;
  slimmedLots: number;
  freedBytes: number;
  /** True when the pass ran a full VACUUM (once, to switch a file made before schema 90 to incremental vacuum). */
  vacuumed: boolean;
}

/** One step's row counts and whether any kind has more to do. */
type StepResult = Omit<PruneResult, 'freedBytes' | 'vacuumed'> & { more: boolean };

const NULL_HASH = createHash('sha256').update('null').digest('hex');

/**
 * The retention pass's statements over one connection. `step` runs one bounded batch of every kind in one
 * transaction; `compact` gives free pages back in bounded steps. Throws only database errors.
 */
export class Pruner {
  private readonly oldLots: Statement<[string, number, number], { lot_key: string }>;
  private readonly lastObservation: Statement<[string], { id: number; total: number } | undefined>;
  private readonly dropOlderObservations: Statement<[string, number]>;
  private readonly keepOneObservation: Statement<[number, number]>;
  private readonly needsCollapse: Statement<[{ key: string }], { n: number }>;
  private readonly slimCandidates: Statement<[string, number, number], { lot_key: string }>;
  private readonly slimLot: Statement<[{ at: number; hash: string; key: string }]>;
  private readonly dropObservationsOf: Statement<[string]>;
  private readonly dropRequests: Statement<[number, number]>;
  private readonly dropRuns: Statement<[number, number]>;
  private readonly dropAlerts: Statement<[number, number]>;
  private readonly dropCallAnswers: Statement<[number, number]>;
  private cursor = { collapse: '', slim: '' };

  constructor(private readonly db: Database) {
    this.oldLots =
      db.prepare(`SELECT lot_key FROM lots WHERE lot_key > ? AND coalesce(auction_at, last_observed_at) < ?
      ORDER BY lot_key LIMIT ?`);
    this.needsCollapse =
      db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM observations WHERE lot_key = @key
      AND (raw IS NOT NULL OR raw_z IS NOT NULL OR id <> (SELECT max(id) FROM observations WHERE lot_key = @key))
      LIMIT 1)`);
    this.lastObservation =
      db.prepare(`SELECT max(id) AS id, sum(seen) AS total FROM observations WHERE lot_key = ?
      HAVING count(*) > 0`);
    this.dropOlderObservations = db.prepare('DELETE FROM observations WHERE lot_key = ? AND id <> ?');
    this.keepOneObservation = db.prepare(
      'UPDATE observations SET raw = NULL, raw_z = NULL, seen = ? WHERE id = ?',
    );
    // An ended lot nobody follows: no watch of its lot or VIN, no notes or tags of the buyer's, not slimmed yet.
    this.slimCandidates =
      db.prepare(`SELECT lot_key FROM lots l WHERE lot_key > ? AND auction_at < ? AND pruned_at IS NULL
      AND notes = '' AND tags = ''
      AND NOT EXISTS (SELECT 1 FROM watches w WHERE w.lot_key = l.lot_key OR (l.vin IS NOT NULL AND w.vin = l.vin))
      ORDER BY lot_key LIMIT ?`);
    // Its photo addresses go too (their count stays): comparables never show them, and listing photos expire.
    this.slimLot =
      db.prepare(`UPDATE lots SET raw = 'null', raw_z = NULL, raw_hash = @hash, content_hash = NULL,
      pruned_at = @at,
      normalized = CASE WHEN json_valid(normalized) AND json_type(normalized, '$.media.photos') = 'array'
        THEN json_set(normalized, '$.media.photos_count',
          coalesce(json_extract(normalized, '$.media.photos_count'), json_array_length(normalized, '$.media.photos')),
          '$.media.photos', json('[]'))
        ELSE normalized END
      WHERE lot_key = @key`);
    this.dropObservationsOf = db.prepare('DELETE FROM observations WHERE lot_key = ?');
    this.dropRequests = db.prepare(
      'DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE at < ? LIMIT ?)',
    );
    this.dropRuns = db.prepare(
      "DELETE FROM poll_runs WHERE id IN (SELECT id FROM poll_runs WHERE started_at < ? AND status <> 'running' LIMIT ?)",
    );
    // A call watch's old answers (their extracts: the bodies are bounded as they are stored), past the log's days;
    // the last answer and the last good one (the diff's base) always stay.
    this.dropCallAnswers = db.prepare(`DELETE FROM call_answers WHERE id IN (SELECT a.id FROM call_answers a
      WHERE a.at < ? AND a.id <> (SELECT max(l.id) FROM call_answers l WHERE l.watch_id = a.watch_id)
      AND a.id IS NOT (SELECT max(g.id) FROM call_answers g WHERE g.watch_id = a.watch_id AND g.good = 1) LIMIT ?)`);
    // Channel deliveries go with their alert (deliveries.alert_id ON DELETE CASCADE).
    this.dropAlerts =
      db.prepare(`DELETE FROM alerts WHERE id IN (SELECT id FROM alerts WHERE read_at IS NOT NULL
      AND read_at < ? AND status IN ('delivered', 'suppressed', 'recovered') LIMIT ?)`);
  }

  /** Starts the lot walks from the first lot again (each pass walks every old lot once). */
  restart(): void {
    this.cursor = { collapse: '', slim: '' };
  }

  /**
   * One bounded batch of every kind, in one transaction, at time `now` (ms) under `policy`: observations of up to
   * 100 old lots collapsed to their newest, without a record copy (`seen` the total; the lot row keeps its record),
   * up to 100 lots slimmed, up to PRUNE_BATCH request log rows, poll runs and read alerts deleted. `more` is true
   * while any kind may have more to do. On the 7-day load run's file with everything old, a step takes at most
   * 75 ms (95% under 50 ms).
   */
  step(now: number, policy: RetentionPolicy): StepResult {
    return this.db.transaction((): StepResult => {
      const cutoff = now - policy.fullRecordDays * DAY;
      let observations = 0;
      const lots = this.oldLots.all(this.cursor.collapse, cutoff, LOT_BATCH);
      for (const { lot_key } of lots) {
        if (this.needsCollapse.get({ key: lot_key })!.n === 0) continue;
        const last = this.lastObservation.get(lot_key);
        if (!last) continue;
        observations += this.dropOlderObservations.run(lot_key, last.id).changes;
        this.keepOneObservation.run(last.total, last.id);
      }
      this.cursor.collapse = lots.at(-1)?.lot_key ?? this.cursor.collapse;
      const slim = this.slimCandidates.all(this.cursor.slim, cutoff, LOT_BATCH);
      for (const { lot_key } of slim) {
        observations += this.dropObservationsOf.run(lot_key).changes;
        this.slimLot.run({ at: now, hash: NULL_HASH, key: lot_key });
      }
      this.cursor.slim = slim.at(-1)?.lot_key ?? this.cursor.slim;
      const requestLog = this.dropRequests.run(now - policy.logDays * DAY, PRUNE_BATCH).changes;
      const pollRuns = this.dropRuns.run(now - policy.logDays * DAY, PRUNE_BATCH).changes;
      const alerts = this.dropAlerts.run(now - policy.readAlertDays * DAY, PRUNE_BATCH).changes;
      const callAnswers = this.dropCallAnswers.run(now - policy.logDays * DAY, PRUNE_BATCH).changes;
      const more =
        callAnswers === PRUNE_BATCH ||
        lots.length === LOT_BATCH ||
        slim.length === LOT_BATCH ||
        requestLog === PRUNE_BATCH ||
        pollRuns === PRUNE_BATCH ||
        alerts === PRUNE_BATCH;
      return { observations, requestLog, pollRuns, alerts, slimmedLots: slim.length, more };
    })();
  }

  /** Free bytes inside the file (its freelist) and the file's size in bytes. */
  freeBytes(): { free: number; total: number } {
    const page = this.db.pragma('page_size', { simple: true }) as number;
    const free = this.db.pragma('freelist_count', { simple: true }) as number;
    const count = this.db.pragma('page_count', { simple: true }) as number;
    return { free: free * page, total: count * page };
  }

  /**
   * Gives up to VACUUM_PAGES free pages back to the file system when the file is in incremental auto-vacuum mode.
   * Returns the bytes given back (0 when nothing is free or the mode is not incremental).
   */
  compactStep(): number {
    if ((this.db.pragma('auto_vacuum', { simple: true }) as number) !== 2) return 0;
    const before = this.freeBytes().free;
    this.db.pragma(`incremental_vacuum(${VACUUM_PAGES})`);
    return before - this.freeBytes().free;
  }

  /**
   * Whether the file should be switched to incremental auto-vacuum with one full VACUUM: only a file made before
   * schema 90 (auto_vacuum NONE) whose free space is at least VACUUM_MIN_FREE_BYTES and a quarter of the file, so the
   * one blocking rewrite (about a second per 100 MB) happens once, when it gives much back.
   */
  wantsFullVacuum(): boolean {
    if ((this.db.pragma('auto_vacuum', { simple: true }) as number) === 2) return false;
    const { free, total } = this.freeBytes();
    return free >= VACUUM_MIN_FREE_BYTES && free * 4 >= total;
  }

  /** Switches the file to incremental auto-vacuum and rewrites it without free pages (VACUUM). Blocks while it runs. */
  fullVacuum(): void {
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
  }
}

const nextTick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Runs a whole retention pass: prune steps until nothing is left, each its own short transaction with the event loop
 * free between them (polls and the UI go on), then gives the freed pages back to the disk: incremental_vacuum steps
 * when the file is in that mode; on a file made before schema 90, one full VACUUM the first time a pass leaves a
 * quarter of the file free (see Pruner.wantsFullVacuum). `now` is read once (ms).
 * @throws SqliteError (a full disk, a damaged file); rows already pruned stay pruned.
 */
export async function prune(db: Database, now: number, policy: RetentionPolicy): Promise<PruneResult> {
  const p = new Pruner(db);
  const total: PruneResult = {
    observations: 0,
    requestLog: 0,
    pollRuns: 0,
    alerts: 0,
    slimmedLots: 0,
    freedBytes: 0,
    vacuumed: false,
  };
  for (;;) {
    if (!db.open) return total;
    const r = p.step(now, policy);
    total.observations += r.observations;
    total.requestLog += r.requestLog;
    total.pollRuns += r.pollRuns;
    total.alerts += r.alerts;
    total.slimmedLots += r.slimmedLots;
    if (!r.more) break;
    await nextTick();
  }
  if (!db.open) return total;
  if (p.wantsFullVacuum()) {
    const before = p.freeBytes().total;
    p.fullVacuum();
    total.freedBytes = before - p.freeBytes().total;
    total.vacuumed = true;
    return total;
  }
  if (p.freeBytes().free < VACUUM_MIN_FREE_BYTES) return total;
  for (;;) {
    if (!db.open) return total;
    const freed = p.compactStep();
    total.freedBytes += freed;
    if (freed === 0) break;
    await nextTick();
  }
  return total;
}

/** What the daily retention pass needs; the clock is injected (tests, the accelerated Demo). */
export interface RetentionDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  /** The buyer's "keep full records for N days" (Settings), read at each pass. */
  fullRecordDays: () => number;
}

/** The first pass waits this long after start (ms), after the first polls and the first backup. */
export const FIRST_PRUNE_DELAY_MS = 10 * 60_000;

/**
 * The retention pass on the injected clock: FIRST_PRUNE_DELAY_MS after start, then every 24 hours. One pass at a
 * time; dispose waits for the one in flight. Logs one line per pass that removed something, and failures (the next
 * pass tries again).
 */
export class RetentionScheduler {
  private readonly job: DailyJob<PruneResult>;

  constructor(private readonly d: RetentionDeps) {
    this.job = new DailyJob({ clock: d.clock, run: () => this.pass(), next: () => DAY });
  }

  /** Plans the first pass of this run. Idempotent. */
  start(): void {
    this.job.start(FIRST_PRUNE_DELAY_MS);
  }

  /** Runs a pass now (or joins the one running); resolves with what it removed, or null when it failed (logged). */
  runNow(): Promise<PruneResult | null> {
    return this.job.runNow();
  }

  /** Cancels the plan and waits for the pass in flight. Idempotent. */
  dispose(): Promise<void> {
    return this.job.dispose();
  }

  private async pass(): Promise<PruneResult | null> {
    if (this.job.stopped || !this.d.db.open) return null;
    try {
      const policy = { ...RETENTION_DEFAULTS, fullRecordDays: this.d.fullRecordDays() };
      const r = await prune(this.d.db, this.d.clock.now(), policy);
      if (r.observations + r.requestLog + r.pollRuns + r.alerts + r.slimmedLots > 0 || r.freedBytes > 0) {
        this.d.log.info('retention: pruned', { ...r });
      }
      return r;
    } catch (e) {
      this.d.log.warn('retention: failed', { error: (e as Error).message });
      return null;
    }
  }
}
