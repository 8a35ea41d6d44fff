import type { AlertRules, LotKey } from '../../shared/watch';
import { actingUserId } from './members';
import { bool, parseStoredRules } from './rows';

/*
 * The watchlist's rows as both engines' repositories read and write them (WatchesRepo on the desktop's SQLite file,
 * KyselyWatchesRepo on either engine): said once here, so the two never disagree. No SQL here.
 */

/** A watch row: a VIN or a lot the user follows. */
export interface WatchRow {
  id: number;
  kind: 'vin' | 'lot';
  vin: string | null;
  lot_key: LotKey | null;
  label: string;
  rules: AlertRules;
  is_example: boolean;
  created_at: number;
  updated_at: number;
  last_checked_at: number | null;
  consecutive_failures: number;
  last_error: string | null;
  /** Paused by the buyer: the watcher skips it until resumed (Check now still checks it). */
  paused: boolean;
  /** The member who added it (`users` id); null: the local owner, or added before the team. */
  created_by: number | null;
  /** The member who last changed its rules, label or pause; null: the local owner, or never by a member. */
  updated_by: number | null;
}

/** A `watches` row as the database returns it (booleans 0/1, rules as JSON text; `kind` as stored). */
export type WatchDbRow = Omit<WatchRow, 'kind' | 'rules' | 'is_example' | 'paused'> & {
  kind: string;
  rules: string;
  is_example: number;
  paused: number;
};

/**
 * What a watch's insert writes: its columns' values (rules as JSON text, 0/1), the time (ms) of the write, and who
 * writes it (actingUserId: `created_by` and `updated_by`).
 */
export type WatchInsert = Pick<WatchRow, 'kind' | 'vin' | 'lot_key' | 'label'> & {
  rules: string;
  is_example: number;
  now: number;
  by: number | null;
};

/** What insertWatch is given (validated by the caller). */
export type WatchInput = Pick<WatchRow, 'kind' | 'vin' | 'lot_key' | 'label' | 'rules' | 'is_example'>;

/**
 * A stored row as a WatchRow: rules parsed (damaged rules read as the defaults, see parseStoredRules), 0/1 as
 * booleans. `kind` is trusted: the table's CHECK allows only 'vin' and 'lot'. Throws only for rules that are not JSON.
 */
export function toWatch(r: WatchDbRow): WatchRow {
  return {
    id: r.id,
    kind: r.kind as WatchRow['kind'],
    vin: r.vin ?? null,
    lot_key: r.lot_key ?? null,
    label: r.label,
    rules: parseStoredRules(r.rules),
    is_example: bool(r.is_example),
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_checked_at: r.last_checked_at ?? null,
    consecutive_failures: r.consecutive_failures,
    last_error: r.last_error ?? null,
    paused: bool(r.paused),
    created_by: r.created_by ?? null,
    updated_by: r.updated_by ?? null,
  };
}

/** The column values insertWatch writes at `now` (ms), as the member the call acts for. */
export function watchInsert(w: WatchInput, now: number): WatchInsert {
  return {
    kind: w.kind,
    vin: w.vin,
    lot_key: w.lot_key,
    label: w.label,
    rules: JSON.stringify(w.rules),
    is_example: w.is_example ? 1 : 0,
    now,
    by: actingUserId(),
  };
}

/** The tray's next watched sale from a joined lots row: a lot without a title is named by its key. */
export function nextSaleOf(r: { lot_key: string; title: string | null; auction_at: number }): {
  lot_key: string;
  title: string;
  auction_at: number;
} {
  return { lot_key: r.lot_key, title: r.title ?? r.lot_key, auction_at: r.auction_at };
}
