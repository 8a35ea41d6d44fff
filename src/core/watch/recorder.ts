import {
  decide,
  dueReminders,
  keyRejectedAlert,
  quietHoursEnd,
  quotaLowAlert,
  quotaSpentAlert,
  searchEmptyAlert,
  searchFailingAlert,
  type AlertDecision,
} from '../alerts';
import type { Clock } from '../clock';
import type { NewAlert, SavedSearchRow, WatchRow, Store } from '../db/store';
import { diffLot } from '../diff';
import { findComps } from '../db/comps';
import { storeSightings } from '../db/vinAttempts';
import { mergeAttempts } from '../diff/attempts';
import { exportBlock } from '../../shared/exportBlock';
import type { QuotaSnapshot } from '../../shared/vehicle';
import {
  lotKeyOf,
  pollTargetKey,
  type AlertRules,
  type Change,
  type LotState,
  type QuietHours,
  watchName,
} from '../../shared/watch';

const HOUR = 3_600_000;

/** What the recorder needs: the store, the clock and the user's quiet hours and time zone. */
export interface RecorderDeps {
  store: Store;
  /** The last quota snapshot (RequestLedger.quota), for the period a 429 without headers still names. */
  quota: () => QuotaSnapshot | null;
  clock: Clock;
  quiet: () => QuietHours;
  /** The user's UTC offset in minutes at time t (e.g. -300 for US Eastern winter). */
  tzOffsetMinutes: (t: number) => number;
}

/**
 * Turns what the polls saw into rows: changes on the timeline, alert decisions (decide()) as alert rows in the
 * outbox, auction reminders, and the quota and system alerts. Awaits only the store, so a caller can put a whole
 * poll's writes in one transaction; rejects only with the store's errors.
 */
export class Recorder {
  constructor(private readonly d: RecorderDeps) {}

  /** The changes between a lot's stored state and a new one, relists found through other stored lots of its VIN. */
  async lotDiff(prev: LotState | null, next: LotState): Promise<Change[]> {
    const others = next.vin
      ? await this.d.store.lots.otherLotsOfVin(next.vin, lotKeyOf(next.platform, next.lot_number))
      : [];
    return diffLot(prev, next, { otherLotsOfVin: others });
  }

  /** The watch that covers a lot: by its lot key, or by its VIN. */
  private async watchFor(lotKey: string, vin: string | null): Promise<WatchRow | null> {
    for (const w of await this.d.store.watches.listWatches()) {
      if (w.lot_key === lotKey || (vin !== null && w.vin === vin)) return w;
    }
    return null;
  }

  /**
   * Stores changes on the timeline and turns them into alerts: a watched lot's changes under the watch's rules;
   * a saved search's new matches (and other changes of its lots, where its rules ask) under the search's rules.
   * `prevOf` gives each lot's state before this poll. Returns how many changes and new alerts were stored.
   */
  async record(
    changes: Change[],
    now: number,
    prevOf: (lotKey: string) => LotState | null,
    search: SavedSearchRow | null,
    watch?: WatchRow,
  ): Promise<{ changes: number; alerts: number }> {
    let alerts = 0;
    for (const c of changes) {
      const changeId = await this.d.store.lots.insertChange(c, search?.id ?? null);
      const w = watch ?? (await this.watchFor(c.lot_key, c.vin));
      const rules: AlertRules | null =
        w && c.kind !== 'new_match' && c.kind !== 'dropped_out' ? w.rules : (search?.rules ?? null);
      if (!rules) continue;
      const source =
        w && rules === w.rules
          ? { kind: 'watch' as const, name: watchName(w) }
          : { kind: 'search' as const, name: search?.name ?? '' };
      const record = await this.d.store.lots.getLotRecord(c.lot_key);
      const title =
        record?.title ?? ([record?.year, record?.make, record?.model].filter(Boolean).join(' ') || c.lot_key);
      const lot = await this.d.store.lots.getLotState(c.lot_key);
      // A new match judged against its comparable sales: their median price paid, from the store (offline).
      const compsMedianUsd =
        c.kind === 'new_match' && rules.comps_below_percent !== null && record
          ? (
              await findComps(this.d.store.comps, {
                lot_key: c.lot_key,
                vin: record.vin,
                make: record.make,
                model: record.model,
                year: record.year,
                odometer: record.odometer,
                damage: record.damage,
              })
            ).stats.median_usd
          : undefined;
      const attempt =
        c.kind === 'relisted' && rules.relist_attempt !== null ? await this.attemptOf(c, now) : undefined;
      // The lot's own figures for "repair cost under N % of ACV", from its stored record (null: no record stored).
      const estimates =
        rules.repair_under_acv_percent === null
          ? undefined
          : record
            ? {
                acv_usd: record.pricing?.acv_usd ?? null,
                est_repair_usd: record.pricing?.est_repair_usd ?? null,
              }
            : null;
      const decision = decide({
        ...(compsMedianUsd !== undefined ? { compsMedianUsd } : {}),
        ...(estimates !== undefined ? { estimates } : {}),
        ...(attempt !== undefined ? { attempt } : {}),
        ...(record ? { exportBlock: exportBlock(record.title_document) } : {}),
        change: c,
        changeId,
        prev: prevOf(c.lot_key),
        lot,
        rules,
        quiet: this.d.quiet(),
        now,
        tzOffsetMinutes: this.d.tzOffsetMinutes(now),
        alertsForLotLastHour: await this.d.store.alerts.alertsForLotSince(c.lot_key, now - HOUR),
        title,
        source,
      });
      if (decision?.lifts_snooze && w) {
        // The event the user snoozed for has happened: the snooze ends with this alert.
        await this.d.store.watches.updateWatchRules(
          w.id,
          { ...w.rules, snooze_until: null, snooze_until_event: null },
          w.label,
          now,
        );
      }
      if (decision) {
        const tag =
          source.kind === 'watch' && w
            ? pollTargetKey({ kind: 'watch', id: w.id })
            : pollTargetKey({ kind: 'search', id: search?.id ?? 0 });
        alerts += await this.storeAlerts([decision], now, changeId, tag);
      }
    }
    return { changes: changes.length, alerts };
  }

  /**
   * The attempt number a relisted lot's new sale is for its VIN, from every attempt the store shows
   * (docs/architecture.md "A VIN's attempts"): the last attempt of the change's lot. Null without a VIN or when the
   * lot is not among them. Reads only.
   */
  private async attemptOf(c: Change, now: number): Promise<number | null> {
    if (c.vin === null) return null;
    const attempts = mergeAttempts(await storeSightings(this.d.store.lots, c.vin), now);
    const own = attempts.filter(
      (a) => a.platform !== null && a.lot_number !== null && lotKeyOf(a.platform, a.lot_number) === c.lot_key,
    );
    return own.length ? own[own.length - 1]!.number : null;
  }

  /**
   * Stores alert decisions as outbox rows (a digest alert waits for the end of quiet hours); a decision whose
   * dedup key is stored already is dropped. `source` is the poll target's wire string, or '' for system alerts.
   * Returns how many rows were new.
   */
  async storeAlerts(
    decisions: AlertDecision[],
    now: number,
    changeId: number | null = null,
    source = '',
  ): Promise<number> {
    let n = 0;
    for (const a of decisions) {
      const row: NewAlert = {
        dedup_key: a.dedup_key,
        kind: a.kind,
        lot_key: a.lot_key,
        change_id: changeId,
        source,
        title: a.title,
        body: a.body,
        reason: a.reason,
        delivery: a.delivery,
        url: a.url ?? null,
        deliver_after:
          a.delivery === 'digest' ? quietHoursEnd(now, this.d.quiet(), this.d.tzOffsetMinutes(now)) : null,
      };
      if ((await this.d.store.alerts.insertAlert(row, now)) !== null) n++;
    }
    return n;
  }

  /**
   * Reminders "auction in N minutes" for watched lots whose reminder times fall in (from, to] (ms), each lot's in
   * one transaction. `watches` is read only when the window is not empty.
   */
  async reminders(
    from: number,
    to: number,
    watches: () => Promise<{ watch: WatchRow; lot: LotState | null }[]>,
  ): Promise<void> {
    if (to <= from) return;
    for (const { watch, lot } of await watches()) {
      if (!lot || watch.rules.remind_minutes_before.length === 0) continue;
      const rec = await this.d.store.lots.getLotRecord(lotKeyOf(lot.platform, lot.lot_number));
      const title = rec?.title ?? lotKeyOf(lot.platform, lot.lot_number);
      const due = dueReminders(lot, watch.rules, from, to, title, {
        quiet: this.d.quiet(),
        tzOffsetMinutes: this.d.tzOffsetMinutes(to),
        ...(rec ? { exportBlock: exportBlock(rec.title_document) } : {}),
      });
      if (due.length) await this.d.store.transaction(() => this.storeAlerts(due, to));
    }
  }

  /**
   * Raises the quota alerts of a snapshot, whoever's request brought it (a poll, a search in the UI, the console):
   * "used up" when nothing remains, else "running low" at 10% or less. Each is keyed by the quota period, so it is
   * raised once a period however many answers carry the same numbers. Rejects only with the store's errors.
   */
  async onQuota(q: QuotaSnapshot | null): Promise<void> {
    if (!q) return;
    const now = this.d.clock.now();
    // A 429 may come without the period headers; the period of the last full snapshot still names the period.
    const stored = this.d.quota();
    const periodEnd =
      q.periodEnd ??
      (stored?.periodEnd !== null && stored?.periodEnd !== undefined && stored.periodEnd > now
        ? stored.periodEnd
        : null);
    if (q.remaining === 0) {
      await this.storeAlerts([quotaSpentAlert(periodEnd, now)], now);
      return;
    }
    if (q.limit !== null && q.remaining !== null && periodEnd !== null) {
      const a = quotaLowAlert({ limit: q.limit, remaining: q.remaining, periodEnd }, now);
      if (a) await this.storeAlerts([a], now);
    }
  }

  /** The "quota used up until <period end>" alert after a 429 that says so (`periodEnd` ms, or null: unknown). */
  async quotaSpent(periodEnd: number | null, now: number): Promise<void> {
    await this.storeAlerts([quotaSpentAlert(periodEnd, now)], now);
  }

  /** The "the service rejected your API key" alert after a 401. */
  async keyRejected(now: number): Promise<void> {
    await this.storeAlerts([keyRejectedAlert(now)], now);
  }

  /**
   * The "saved search keeps failing" alert once a search has failed `failures` runs in a row (`message`: the last
   * error). Returns how many alerts were stored (0 or 1).
   */
  searchFailing(
    s: Pick<SavedSearchRow, 'id' | 'name'>,
    failures: number,
    message: string,
    now: number,
  ): Promise<number> {
    const a = searchFailingAlert({ id: s.id, name: s.name }, failures, message, now);
    return a ? this.storeAlerts([a], now) : Promise.resolve(0);
  }

  /**
   * The "saved search keeps finding nothing" alert, from the result counts of its last complete runs, oldest
   * first, this run's last. Returns how many alerts were stored (0 or 1).
   */
  searchEmpty(s: Pick<SavedSearchRow, 'id' | 'name'>, counts: number[], now: number): Promise<number> {
    const a = searchEmptyAlert({ id: s.id, name: s.name }, counts, now);
    return a ? this.storeAlerts([a], now) : Promise.resolve(0);
  }
}
