import { joinTags, MAX_TAGS, parseTags } from '../../shared/desk';
import type { LotDesk, LotSummary, MethodInput, MethodOutput, WatchView } from '../../shared/ipc/contract';
import type { WatchBulkInput } from '../../shared/ipc/contract/watchlist';
import { parseLotTarget, type Vehicle } from '../../shared/vehicle';
import {
  lotKeyOf,
  parseLotKey,
  pollTargetKey,
  type AlertRules,
  type AlertRulesPatch,
} from '../../shared/watch';
import type { ApiClient } from '../api';
import { checkVin } from '../api/validate';
import type { Clock } from '../clock';
import type { LotRow, LotsRepo } from '../db/lotsRepo';
import type { Async, Transact } from '../db/async';
import { memberIds } from '../db/members';
import type { WatchesRepo, WatchRow } from '../db/watchesRepo';
import { BadInputError, LotwatchError } from '../errors';
import { changedByName, ConflictError, machineOffset, memberRef } from '../owners';
import type { WatchEngine } from '../watch/engine';
import { nextCheckAt } from '../watch/planner';
import { DEFAULT_WATCH_RULES, parseRules } from './rules';

/**
 * How recent a stored copy of a lot must be to stand for a watch's first look (ms): five minutes, well inside the
 * service's refresh of about 15 (docs/service-contract.md); the watcher's next look is planned from the copy's time.
 */
const WATCH_FROM_COPY_MS = 5 * 60_000;

/** What the watchlist needs: its repositories, the engine facade, the clock, the client, and the views below it. */
export interface WatchlistDeps {
  watches: Async<WatchesRepo>;
  /** Read only: the watched lot's row and state. */
  lots: Pick<Async<LotsRepo>, 'getRow' | 'getLotState'>;
  engine: Pick<WatchEngine, 'refresh' | 'ingest' | 'ingestWithin' | 'deliverIngested' | 'checkWatchNow'>;
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: Transact;
  clock: Clock;
  /** The client, or the one "no key" error (src/core/api/clientOrThrow.ts). */
  clientOrThrow: () => ApiClient;
  /** Whether Demo mode's example watches are checked (Demo mode only). */
  examplesActive: () => boolean;
  /** A stored lot as the lists show it (src/core/lots/views.ts lotSummary). */
  summary: (row: LotRow) => LotSummary;
  /** The buyer's figures for a watched lot (DeskService.figures; reads the store). */
  figures: (row: LotRow, rules: AlertRules) => Promise<LotDesk | null>;
  /**
   * The buyer's notes and tags on stored lots (the desk's store, DeskRepo): bulk tagging writes there. `notes` is null
   * for a lot not stored; `setNotes` takes tags comma-joined and says whether the lot was stored.
   */
  desk: {
    notes(key: string): Promise<{ notes: string; tags: string } | null>;
    setNotes(key: string, notes: string, tags: string): Promise<boolean>;
  };
  /** The user's UTC offset at a time (minutes east), for the time a refusal names; default: the machine's. */
  tzOffsetMinutes?: (t: number) => number;
}

/**
 * The watchlist: watches by VIN, lot number or lot-page URL, their rules, check now, and snooze and mute of a
 * watched lot's alerts. Reads go straight to the store; checks go through the engine.
 */
export class WatchlistService {
  constructor(private readonly d: WatchlistDeps) {}

  /** A watch as the list shows it; `names`: the members' names for who added it (read once per list, else here). */
  private async watchView(w: WatchRow, names?: ReadonlyMap<number, string>): Promise<WatchView> {
    const who = names ?? (await this.d.watches.memberNames(memberIds([w.created_by])));
    const row = w.lot_key ? await this.d.lots.getRow(w.lot_key) : null;
    const lot = w.lot_key ? await this.d.lots.getLotState(w.lot_key) : null;
    const last =
      lot && w.last_checked_at !== null ? Math.max(w.last_checked_at, lot.observed_at) : w.last_checked_at;
    // An example watch waits while Demo mode is off (the engine skips it): no next check to show.
    const waits = w.is_example && !this.d.examplesActive();
    return {
      id: w.id,
      kind: w.kind,
      vin: w.vin,
      lot_key: w.lot_key,
      label: w.label,
      rules: w.rules,
      is_example: w.is_example,
      waits_for_demo: waits,
      last_checked_at: w.last_checked_at,
      next_check_at: waits ? null : nextCheckAt(lot, lot ? last : null, this.d.clock.now()),
      last_error: w.last_error,
      paused: w.paused,
      lot: row ? this.d.summary(row) : null,
      desk: row ? await this.d.figures(row, w.rules) : null,
      created_by: memberRef(w.created_by, who),
      updated_at: w.updated_at,
    };
  }

  private async requireWatch(id: number): Promise<WatchRow> {
    const w = await this.d.watches.getWatch(id);
    if (!w) throw new LotwatchError('not_found', `There is no watch ${id}; it may have been removed.`);
    return w;
  }

  /** Every watch as the list shows it (its lot, next check and the buyer's figures). Rejects with database errors. */
  async listWatches(): Promise<WatchView[]> {
    const out: WatchView[] = [];
    const rows = await this.d.watches.listWatches();
    const names = await this.d.watches.memberNames(memberIds(rows.map((w) => w.created_by)));
    for (const w of rows) out.push(await this.watchView(w, names));
    return out;
  }

  /**
   * Adds a watch from what the user typed or pasted (parseLotTarget): a 17-character VIN (a VIN watch, which follows
   * relists), a lot number, a lot URL that names its lot number (every link Lotwatch gives out, with or without
   * https://; the lot must be on that URL's platform, or on `platform` when given), or an IAAI VehicleDetail page
   * (resolved through urltodetails). Fetches the lot once so the list shows it at once, unless a copy of it read in
   * the last five minutes is stored (the lot page's, when `platform` is given: freshCopy).
   * @throws BadInputError (field `target`) for anything else; ApiError from the service.
   */
  async addWatch(i: MethodInput<'watchlist.add'>, isExample = false): Promise<WatchView> {
    const target = i.target.trim();
    const rules = parseRules(i.rules, DEFAULT_WATCH_RULES);
    const now = this.d.clock.now();
    const parsed = parseLotTarget(target);
    if (!parsed) {
      const msg = /^(https?:\/\/)?[\w.-]+\.[a-z]{2,}\//i.test(target)
        ? 'Not a lot page: paste a Copart lot link (copart.com/lot/…) or an IAAI one (iaai.com/VehicleDetail/… or iaai.com/Search?Keyword=…).'
        : 'Enter a VIN (17 characters), a lot number, or a Copart or IAAI lot-page URL.';
      throw new BadInputError(msg, { target: [msg] });
    }
    const vin = parsed.kind === 'vin' ? checkVin(parsed.vin).vin : null;
    const lotNumber = parsed.kind === 'lot' ? parsed.lot_number : null;
    const platform = parsed.kind === 'lot' ? (parsed.platform ?? i.platform ?? null) : null;
    const client = this.d.clientOrThrow();
    const existing = (await this.d.watches.listWatches()).find((w) => {
      if (vin) return w.vin === vin;
      const p = w.lot_key !== null ? parseLotKey(w.lot_key) : null;
      if (!p || parsed.kind !== 'lot') return false;
      return p.lot_number === lotNumber && (platform === null || p.platform === platform);
    });
    if (existing) {
      throw new BadInputError('That vehicle is already on your watchlist.', {
        target: ['Already on your watchlist.'],
      });
    }
    // The lot just read (the lot page the buyer is on): its stored copy is the watch's first look, no request spent.
    const fresh =
      platform !== null ? await this.freshCopy(lotKeyOf(platform, lotNumber as string), now) : null;
    let vehicle: Vehicle | null = null;
    if (!fresh) {
      try {
        vehicle =
          parsed.kind === 'page'
            ? (await client.resolveUrl(parsed.url)).data
            : (await client.getVehicle(vin ?? (lotNumber as string))).data;
      } catch (e) {
        if ((e as LotwatchError).code === 'not_found' && vin) vehicle = null;
        else throw e;
      }
      // A lot link names its platform: a lot of the same number on the other platform is not the one asked for.
      if (platform !== null && vehicle?.platform !== platform) {
        throw new LotwatchError(
          'not_found',
          `There is no ${platform === 'copart' ? 'Copart' : 'IAAI'} lot ${lotNumber}.`,
        );
      }
    }
    const lotKey = fresh
      ? fresh.lot_key
      : vehicle?.platform && vehicle.lot_number
        ? lotKeyOf(vehicle.platform, vehicle.lot_number)
        : null;
    if (!vin && !lotKey) {
      throw new LotwatchError(
        'bad_response',
        'The service answered without a platform and lot number for that lot.',
      );
    }
    const dup = lotKey && (await this.d.watches.listWatches()).find((w) => w.lot_key === lotKey);
    if (dup)
      throw new BadInputError('That lot is already on your watchlist.', {
        target: ['Already on your watchlist.'],
      });
    const id = await this.d.transaction(async () => {
      const wid = await this.d.watches.insertWatch(
        {
          kind: vin ? 'vin' : 'lot',
          vin: vin ?? (fresh ? fresh.vin : vehicle?.vin) ?? null,
          lot_key: lotKey,
          label: i.label ?? '',
          rules,
          is_example: isExample,
        },
        now,
      );
      if (fresh) await this.d.watches.watchChecked(wid, fresh.last_observed_at, lotKey, fresh.vin);
      else if (vehicle) {
        await this.d.watches.watchChecked(wid, now, lotKey, vehicle.vin);
        // The lot's first state lands with its watch: a tick between the two would find a watch whose lot has no
        // state, due at once (planner.ts nextCheckAt), and look the lot up a second time.
        await this.d.engine.ingestWithin([vehicle], pollTargetKey({ kind: 'watch', id: wid }));
      }
      return wid;
    });
    if (vehicle) await this.d.engine.deliverIngested();
    await this.d.engine.refresh();
    return this.watchView(await this.requireWatch(id));
  }

  /**
   * The stored lot `key` when it was read in the last WATCH_FROM_COPY_MS before `now` (ms): as fresh as a new look
   * could be (the service refreshes prices and states within about 15 minutes, docs/service-contract.md), so
   * watching the lot a buyer has just opened costs no request (on the free plan, a hundredth of the month's).
   * Null otherwise. Rejects with database errors.
   */
  private async freshCopy(key: string, now: number): Promise<LotRow | null> {
    const row = await this.d.lots.getRow(key);
    return row && now - row.last_observed_at <= WATCH_FROM_COPY_MS ? row : null;
  }

  /** Removes a watch. @throws not_found. */
  async removeWatch(id: number): Promise<{ ok: true }> {
    await this.requireWatch(id);
    await this.d.watches.deleteWatch(id);
    await this.d.engine.refresh();
    return { ok: true };
  }

  /**
   * Replaces a watch's rules (merged over its current ones) and label. With `expectedUpdatedAt` (ms, the copy the
   * editor read) only while the watch is still as read: the check and the write are one statement in one
   * transaction. @throws BadInputError, not_found, ConflictError (`conflict`: it changed since; nothing written).
   */
  async setWatchRules(
    id: number,
    rulesInput: AlertRulesPatch | undefined,
    label?: string,
    expectedUpdatedAt?: number,
  ): Promise<WatchView> {
    const w = await this.requireWatch(id);
    if (expectedUpdatedAt !== undefined && w.updated_at !== expectedUpdatedAt)
      throw await this.changedSince(w);
    const rules = parseRules(rulesInput, w.rules);
    await this.d.transaction(async () => {
      const now = this.d.clock.now();
      if (await this.d.watches.updateWatchRules(id, rules, label ?? w.label, now, expectedUpdatedAt)) return;
      // Not written: removed, or changed between the read above and the write.
      throw await this.changedSince(await this.requireWatch(id));
    });
    await this.d.engine.refresh();
    return this.watchView(await this.requireWatch(id));
  }

  /**
   * A team member's change of a watch's rules (watchlist.setRules on a team server), the patch already split
   * (splitRulesPatch in src/core/team/personal.ts): `team` and `label` are written as setWatchRules writes them (with
   * `expectedUpdatedAt`), and only when one of them differs from what is in force, so a member's form that sends back
   * every field it showed changes the team's rules, and their `updated_at`, only when it changes one of them; then
   * `keep` writes the member's own fields for the watch's lot (null: none to write). The team's rules come first, so
   * a refused save writes nothing. Resolves to the watch as the team's rules have it (the caller overlays the
   * member's). @throws BadInputError (also when there are own fields and the watch has no lot yet), not_found,
   * ConflictError.
   */
  async setMemberRules(
    id: number,
    team: AlertRulesPatch,
    label: string | undefined,
    expectedUpdatedAt: number | undefined,
    keep: ((lotKey: string) => Promise<void>) | null,
  ): Promise<WatchView> {
    const w = await this.requireWatch(id);
    const lotKey = w.lot_key;
    if (keep && lotKey === null) {
      const msg = 'This watch has no lot yet. Set your max bid, mute or snooze once its lot is found.';
      throw new BadInputError(msg, { 'rules.max_bid_usd': [msg] });
    }
    const changed = Object.entries(team).some(
      ([k, v]) => JSON.stringify(w.rules[k as keyof AlertRules]) !== JSON.stringify(v),
    );
    if (changed || (label !== undefined && label !== w.label))
      await this.setWatchRules(id, team, label, expectedUpdatedAt);
    if (keep && lotKey !== null) await keep(lotKey);
    return this.watchView(await this.requireWatch(id));
  }

  /** The refusal of a save made on an older copy of `w`: who changed it last, and when (its `updated_at`). */
  private async changedSince(w: WatchRow): Promise<ConflictError> {
    const names = await this.d.watches.memberNames(memberIds([w.updated_by]));
    const tz = (this.d.tzOffsetMinutes ?? machineOffset)(w.updated_at);
    return new ConflictError(changedByName(w.updated_by, names), w.updated_at, tz);
  }

  /**
   * One action on many watches (contract `watchlist.bulk`), in one transaction: pause/resume (the watcher skips a
   * paused watch, see WatchScheduler.watchStates), remove, or tag (the tags join each watched lot's desk tags, each
   * once). Ids of watches that are gone are counted as skipped, not refused: another window may have removed them.
   */
  async bulk(i: WatchBulkInput): Promise<MethodOutput<'watchlist.bulk'>> {
    const now = this.d.clock.now();
    let changed = 0;
    await this.d.transaction(async () => {
      for (const id of new Set(i.ids)) {
        const w = await this.d.watches.getWatch(id);
        if (!w) continue;
        if (i.action === 'remove') {
          await this.d.watches.deleteWatch(id);
          changed++;
        } else if (i.action === 'tag') {
          const had = w.lot_key ? await this.d.desk.notes(w.lot_key) : null;
          if (!w.lot_key || !had) continue;
          const tags = parseTags([had.tags, ...i.tags].join(','));
          if (tags.length > MAX_TAGS) continue;
          if (await this.d.desk.setNotes(w.lot_key, had.notes, joinTags(tags))) changed++;
        } else if (await this.d.watches.setPaused(id, i.action === 'pause', now)) changed++;
      }
    });
    if (i.action !== 'tag') await this.d.engine.refresh();
    return { changed, skipped: new Set(i.ids).size - changed };
  }

  /** Checks one watch now (one request), queued behind the job in flight. @throws not_found, unauthorized. */
  async checkWatchNow(id: number): Promise<MethodOutput<'watchlist.checkNow'>> {
    await this.requireWatch(id);
    this.d.clientOrThrow();
    return this.d.engine.checkWatchNow(id);
  }

  private async watchOfLot(lotKey: string): Promise<WatchRow> {
    const rec = await this.d.lots.getLotState(lotKey);
    const w = (await this.d.watches.listWatches()).find(
      (x) => x.lot_key === lotKey || (rec?.vin && x.vin === rec.vin),
    );
    if (!w)
      throw new LotwatchError(
        'not_found',
        'Only lots on your watchlist can be snoozed or muted. Watch it first.',
      );
    return w;
  }

  /** Snoozes a watched lot's alerts until a time (ms) or an event. @throws not_found when the lot is not watched. */
  async snooze(i: MethodInput<'alerts.snooze'>): Promise<WatchView> {
    const w = await this.watchOfLot(i.lot_key);
    return this.setWatchRules(w.id, {
      snooze_until: i.until ?? null,
      snooze_until_event: i.until_event ?? null,
    });
  }

  /** Mutes or unmutes a watched lot's alerts. @throws not_found when the lot is not watched. */
  async mute(lotKey: string, muted: boolean): Promise<WatchView> {
    const w = await this.watchOfLot(lotKey);
    return this.setWatchRules(w.id, { muted });
  }

  /** The soonest sale among the watched lots, for the header's "next sale". Reads only. */
  nextSale(): Promise<MethodOutput<'watchlist.nextSale'>> {
    return this.d.watches.nextSale(this.d.clock.now());
  }
}
