import type { Logger } from '../log';
import { currentActor } from '../actor';
import type { Clock } from '../clock';
import type { CompsRepo } from '../db/compsRepo';
import type { DeskRepo } from '../db/deskRepo';
import type { LotRow, LotsRepo } from '../db/lotsRepo';
import type { WatchesRepo } from '../db/watchesRepo';
import { LotwatchError } from '../errors';
import {
  FEE_LOADS,
  FeeScheduleError,
  landedCost,
  type FeeFileLoad,
  type LandedCost,
} from '../../shared/fees';
import type { FeeChoice } from '../../shared/feeTable';
import { feeTableView, lotFeeChoice } from './feeChoice';
import { joinTags, parseTags, type DeskSettings } from '../../shared/desk';
import type { LotDesk, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import { saleOutcomeOf } from '../../shared/saleOutcome';
import { lotPageUrl, PLATFORMS, type Platform } from '../../shared/vehicle';
import { maxBidExcludes, resolveCosts } from '../../shared/shipping';
import type { AlertRules } from '../../shared/watch';
import { csvRow, csvText } from './csv';
import { calendarSkipped, watchedSalesCalendar, type CalendarSale } from './calendar';
import { findComps } from '../db/comps';
import type { MarketCompsRepo } from '../db/marketCompsRepo';
import type { Async } from '../db/async';
import { bidRange, type BuyerCosts } from './bidRange';
import { MarketComps, type MarketDeps } from './market';
import { DailyJob } from '../db/dailyJob';
import { titleGroupOf } from '../../shared/titleGroup';

/**
 * The headless shell's calendar subscription (docs/architecture.md "The buyer's desk"): `/calendar.ics` with a secret
 * of its own that opens the calendar and nothing else, kept in the data folder so the address survives a restart.
 */
export interface CalendarSubscription {
  /** The address with the calendar's secret, or null before the server listens. Throws what storing a first secret throws. */
  address(): string | null;
  /** True when the shell listens on a port the buyer chose (`--port`): the address is the same after a restart. */
  portFixed(): boolean;
  /**
   * Replaces the secret: the old address answers 401 from now on. Resolves to the new address (null before
   * listening).
   */
  renew(): Promise<string | null>;
}

/** What the desk needs from the rest of core; the service search is injected so this file never holds a client. */
export interface DeskDeps {
  /** Its repositories only: lots (read), the desk's notes, tags and shipping, comparable sales, watches (read). */
  store: {
    lots: Async<LotsRepo>;
    desk: Async<DeskRepo>;
    comps: Async<CompsRepo>;
    market: Async<MarketCompsRepo>;
    watches: Pick<Async<WatchesRepo>, 'listWatches'>;
  };
  clock: Clock;
  /** The user's desk settings as they are now. */
  settings: () => DeskSettings;
  /**
   * Runs one page of GET /vehicles (with `cursor` after the first) and stores what it returns as any fetched lot
   * (ExploreService.search): the stored lots' keys, how many had ended, the next cursor. Throws the service's errors.
   */
  searchPage: MarketDeps['searchPage'];
  /** "demo" or the service URL: market answers are kept per source. */
  source: () => string;
  /** The headless shell's calendar subscription, or null (the desktop app exports a file). */
  calendar: CalendarSubscription | null;
  /**
   * Whether `n` low-value requests fit beyond the planned polls (WatchEngine.spare); the market comparables of
   * watched lots run by themselves only when it says so. Default never.
   */
  spare?: (n: number) => boolean;
  /** Where a failed pass of the watched lots' market comparables is logged (it is retried at the next pass). */
  log?: Pick<Logger, 'warn'>;
  /** The keys of the lots a library query finds, best first (LotsService.searchLibrary), at most `limit`. */
  libraryKeys: (q: string, limit: number) => Promise<string[]>;
  /** The fee files as loaded (default FEE_LOADS, data/fees/); a test passes a broken one. */
  fees?: Readonly<Record<Platform, FeeFileLoad>>;
}

/**
 * How a team member sees a watch's rules (MemberState.rulesOf in src/core/team/personal.ts): loaded once for
 * `userId`, a function giving a lot's rules with the member's own max bid (USD) in place of the team's and the
 * team's max bid details null. The desk works out the member's details from their max bid.
 */
export interface MemberRules {
  rulesOf(userId: number): Promise<(lotKey: string | null, rules: AlertRules) => AlertRules>;
}

/** A lot or fact the desk needs is not in the store: the UI says what to do (open the lot once). */
const notFound = (message: string) => new LotwatchError('not_found', message);

/** The watched lots' market pass: first 30 minutes after start, then every 6 hours (a band is asked once a day). */
const AUTO_PASS_FIRST_MS = 30 * 60_000;
const AUTO_PASS_EVERY_MS = 6 * 3_600_000;

const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);

/**
 * The buyer's desk (docs/architecture.md "The buyer's desk"): landed cost and max bid at a lot's current bid from
 * the published fee schedules and the user's own lines, notes and tags, comparable sales from the store, and the
 * watched sales as a calendar. Everything here is offline except `marketComps`, which spends 1 request (2 at most)
 * the user asked for, once a day per band.
 */
export class DeskService {
  private readonly market: MarketComps;
  /** The market comparables of watched lots, every 6 hours on the injected clock once started. */
  private readonly autoJob: DailyJob<{ bands: number; requests: number }>;

  constructor(private readonly d: DeskDeps) {
    this.market = new MarketComps({
      repo: d.store.market,
      clock: d.clock,
      source: d.source,
      searchPage: d.searchPage,
    });
    this.autoJob = new DailyJob({
      clock: d.clock,
      run: () =>
        this.watchedMarketPass().catch((e: unknown) => {
          this.d.log?.warn('market comparables pass failed', { error: (e as Error)?.message });
          return null;
        }),
      next: () => AUTO_PASS_EVERY_MS,
    });
  }

  /**
   * Market comparables of the watched lots' bands by themselves, at low value (MarketComps.autoPass with
   * `spare`): each band at most once a day, only while the budget has room beyond the planned polls. Resolves with
   * the bands asked and the requests spent; rejects with database errors.
   */
  async watchedMarketPass(): Promise<{ bands: number; requests: number }> {
    const spare = this.d.spare ?? (() => false);
    const rows: LotRow[] = [];
    for (const w of await this.d.store.watches.listWatches()) {
      const r = w.lot_key ? await this.d.store.lots.getRow(w.lot_key) : null;
      if (r !== null && saleOutcomeOf(r) === 'open') rows.push(r);
    }
    return this.market.autoPass(rows, spare);
  }

  /** Starts the watched lots' market pass: the first 30 minutes from now, then every 6 hours. Idempotent. */
  start(): void {
    this.autoJob.start(AUTO_PASS_FIRST_MS);
  }

  /** Pauses the watched lots' market pass (`start` plans it again) and waits for one in flight. */
  stop(): Promise<void> {
    return this.autoJob.pause();
  }

  /** Stops the watched lots' market pass and waits for one in flight. */
  dispose(): Promise<void> {
    return this.autoJob.dispose();
  }

  /**
   * The fee table a stored lot is charged from: its platform, its title document and the buyer's membership
   * (src/core/desk/feeChoice.ts), or null for a platform without a fee file. Throws nothing.
   */
  feeChoice(row: LotRow, s: DeskSettings = this.d.settings()): FeeChoice | null {
    return lotFeeChoice(row, s, this.d.fees ?? FEE_LOADS);
  }

  /**
   * A lot's figures at its current bid: notes, tags, the port the landed cost uses and its kept shipping price (USD;
   * the buyer's port or the lot's cheapest, with the destination's ocean freight and duty: resolveCosts in
   * src/shared/shipping.ts), the landed cost (USD, null without a bid, without a known fee table for the lot
   * (feeChoice) or when the table has no tier for the bid) with what it leaves out, and the max bid from the watch's
   * rules (null when not watched or not set) with what it was solved without. With `member`, called for a team
   * member (currentActor), the max bid is the member's own (see ownOf). Reads the store; rejects with database errors
   * only.
   */
  async figures(
    row: LotRow,
    rules: AlertRules | null,
    member?: MemberRules,
    s: DeskSettings = this.d.settings(),
  ): Promise<LotDesk> {
    const own = await this.ownOf(member);
    return (await this.breakdown(row, own && rules ? own(row.lot_key, rules) : rules, s, own !== null)).desk;
  }

  /**
   * The current caller's view of watch rules: null for the local owner (user id null, or no `member` given: the
   * team's rules as stored), else the member's own (MemberRules), whose max bid is theirs. Their max bid raises no
   * alert: the watcher raises "bid near / past your max bid" from the team's rules only.
   */
  private async ownOf(
    member: MemberRules | undefined,
  ): Promise<((lotKey: string | null, rules: AlertRules) => AlertRules) | null> {
    const user = currentActor().userId;
    return member && user !== null ? member.rulesOf(user) : null;
  }

  /**
   * figures() with the buyer fees (USD) of the same landed cost, for the CSV; `s` is read once by a caller that
   * works out many lots (settings are parsed on every read). `mine`: `rules` are a team member's own (their max bid,
   * no details): the landed cost at their max bid stands as its target and what it leaves out now as its excludes.
   * Resolves also to the rules with those details (`rules`).
   */
  private async breakdown(
    row: LotRow,
    rulesIn: AlertRules | null,
    s: DeskSettings,
    mine = false,
  ): Promise<{
    desk: LotDesk;
    fees_usd: number | null;
    costs: BuyerCosts;
    choice: FeeChoice | null;
    rules: AlertRules | null;
  }> {
    const ship = resolveCosts(await this.d.store.desk.shipping(row.lot_key), s);
    const choice = this.feeChoice(row, s);
    const costs: BuyerCosts = choice?.ok
      ? {
          schedule: choice.schedule,
          shipping_usd: ship.shipping_usd,
          lines: ship.lines,
          opts: { custom: s.custom_fees, omit: s.omit_fees },
        }
      : null;
    const landedAt = (bid: number | null): LandedCost | null => {
      if (!costs || bid === null) return null;
      try {
        return landedCost({ ...costs, bid_usd: bid });
      } catch (e) {
        if (!(e instanceof FeeScheduleError)) throw e;
        return null;
      }
    };
    const landed = landedAt(row.current_bid_usd);
    let rules = rulesIn;
    const atMax = mine && rules ? landedAt(rules.max_bid_usd) : null;
    if (rules && atMax)
      rules = {
        ...rules,
        target_landed_usd: atMax.total_usd,
        max_bid_excludes: ship.gaps.map((g) => g.part),
      };
    const desk: LotDesk = {
      notes: row.notes,
      tags: parseTags(row.tags),
      port: ship.port,
      shipping_usd: ship.shipping_usd,
      landed_cost_usd: landed?.total_usd ?? null,
      landed_excludes: landed ? ship.gaps : [],
      max_bid_usd: rules?.max_bid_usd ?? null,
      max_bid_excludes: rules ? maxBidExcludes(rules) : [],
    };
    return { desk, fees_usd: landed?.fees_usd ?? null, costs, choice, rules };
  }

  /**
   * Everything the lot page's desk shows for a stored lot: its figures, the tags in use, the kept shipping prices,
   * comparable sales from the store ranked with their reasons (src/core/db/comps.ts), the band of market
   * comparables and its stored answer (src/core/desk/market.ts), the bid range or its refusal
   * (src/core/desk/bidRange.ts, with the watch's target landed cost when set), the lot's own estimates (the
   * service's, IAAI's ACV and repair cost) and the fee table charged with the reason it applies (or why none does).
   * With `member`, for a team member the max bid, what it leaves out and the landed cost at it (the bid range's
   * target) are the member's own (ownOf). Offline. @throws LotwatchError not_found when the lot is not stored.
   */
  async lot(key: string, member?: MemberRules): Promise<MethodOutput<'desk.lot'>> {
    const row = await this.d.store.lots.getRow(key);
    if (!row)
      throw notFound('This lot is not stored on this computer yet. Open it once with a key or in Demo mode.');
    const watch = (await this.d.store.watches.listWatches()).find((w) => w.lot_key === key);
    const rec = await this.d.store.lots.getLotRecord(key);
    const titleGroup = titleGroupOf(rec?.title_document?.name);
    const comps = await findComps(this.d.store.comps, {
      lot_key: key,
      vin: row.vin,
      make: row.make,
      model: row.model,
      year: row.year,
      odometer: rec?.odometer ?? null,
      damage: rec?.damage ?? null,
      title_group: titleGroup,
      run_condition: rec?.run_condition ?? null,
      has_key: rec?.has_key ?? null,
    });
    const own = await this.ownOf(member);
    const team = watch?.rules ?? null;
    const mine = own !== null && team !== null;
    const b = await this.breakdown(row, mine ? own(key, team) : team, this.d.settings(), mine);
    const { desk, costs, choice, rules } = b;
    return {
      desk,
      tags_in_use: await this.d.store.desk.tagsInUse(),
      shipping: await this.d.store.desk.shipping(key),
      comps,
      market: await this.market.status(row),
      bid_range: bidRange(comps.comps, costs, rules?.target_landed_usd ?? null, titleGroup),
      estimates: {
        service_from_usd: rec?.pricing?.estimated_cost_from_usd ?? null,
        service_to_usd: rec?.pricing?.estimated_cost_to_usd ?? null,
        acv_usd: rec?.pricing?.acv_usd ?? null,
        repair_usd: rec?.pricing?.est_repair_usd ?? null,
        repair_to_value: rec?.pricing?.repair_to_value ?? null,
      },
      fee_table: feeTableView(choice, row.platform),
    };
  }

  /**
   * Saves a stored lot's notes and tags (tags cleaned by the contract's TagsSchema). The full-text index follows
   * (its trigger). @throws LotwatchError not_found when the lot is not stored.
   */
  async setNotes(i: MethodInput<'lots.setNotes'>): Promise<MethodOutput<'lots.setNotes'>> {
    if (!(await this.d.store.desk.setNotes(i.lot_key, i.notes, joinTags(i.tags)))) {
      throw notFound('This lot is not stored on this computer, so there is nowhere to keep the note.');
    }
    return { notes: i.notes, tags: i.tags };
  }

  /**
   * Market comparables of a stored lot's band (MarketComps.fetch): 0 requests within a day of the band's last
   * answer, else 1 (2 when the first page is full). @throws LotwatchError not_found / bad_input; the service's errors.
   */
  async marketComps(key: string): Promise<MethodOutput<'desk.marketComps'>> {
    return this.market.fetch(await this.d.store.lots.getRow(key));
  }

  /**
   * CSV of the chosen lots (or of a library query's first 500, or of every stored lot), one row per lot with a
   * header: every field a buyer filters on (odometer in miles, damage, title document, run condition, keys, seller,
   * location), the service's price estimate, IAAI's ACV and estimated repair cost (USD) and repair to value (a ratio),
   * the buyer fees and landed cost at the current bid, the max bid, notes and tags (CSV_COLUMNS). Amounts USD, times
   * ISO 8601 UTC; an unknown figure is an empty cell; lot numbers and VINs as text, never as numbers. A landed cost or
   * max bid that leaves shipping (or ocean freight and duty) out says so in the column after it
   * (`landed_cost_excludes`, `max_bid_excludes`: `shipping`, `ocean freight and duty`, both, or empty): a column rather
   * than a label in the value, because a spreadsheet sums and sorts the amount columns and "2070 excluding shipping"
   * is text it cannot add up, while the column beside it filters the rows whose number is not complete. Offline;
   * rejects with database errors only. With `member`, a team member's rows carry their own max bid (ownOf).
   */
  async exportCsv(
    i: MethodInput<'library.export'>,
    member?: MemberRules,
  ): Promise<MethodOutput<'library.export'>> {
    const keys = i.lot_keys ?? (i.q ? await this.d.libraryKeys(i.q, 500) : null);
    let rows: LotRow[];
    if (keys) {
      rows = [];
      for (const k of keys) {
        const r = await this.d.store.lots.getRow(k);
        if (r) rows.push(r);
      }
    } else rows = await this.d.store.lots.all();
    const rulesOf = new Map((await this.d.store.watches.listWatches()).map((w) => [w.lot_key, w.rules]));
    const settings = this.d.settings();
    const own = await this.ownOf(member);
    const out: ReturnType<typeof csvRow>[] = [];
    for (const r of rows) {
      const team = rulesOf.get(r.lot_key) ?? null;
      const mine = own !== null && team !== null;
      const { desk, fees_usd } = await this.breakdown(r, mine ? own(r.lot_key, team) : team, settings, mine);
      out.push(csvRow(r, desk, fees_usd));
    }
    return { csv: csvText(out), rows: rows.length };
  }

  /**
   * The watched lots' sales as an iCalendar file (RFC 5545, src/core/desk/calendar.ts): one event per watched lot
   * with a sale time, its UID stable per lot so a re-export or a subscription moves a rescheduled sale. Offline;
   * rejects with database errors only. With `member`, a team member's events carry their own max bid (ownOf).
   */
  async calendar(member?: MemberRules): Promise<MethodOutput<'plan.calendar'>> {
    const sales: CalendarSale[] = [];
    const settings = this.d.settings();
    for (const w of await this.d.store.watches.listWatches()) {
      const row = w.lot_key ? await this.d.store.lots.getRow(w.lot_key) : null;
      if (!row || !isPlatform(row.platform)) continue;
      const f = await this.figures(row, w.rules, member, settings);
      sales.push({
        lot_key: row.lot_key,
        platform: row.platform,
        lot_number: row.lot_number,
        vin: row.vin,
        title:
          row.title ?? ([row.year, row.make, row.model].filter(Boolean).join(' ') || `Lot ${row.lot_number}`),
        auction_at: row.auction_at,
        location: row.location,
        current_bid_usd: row.current_bid_usd,
        max_bid_usd: f.max_bid_usd,
        max_bid_excludes: f.max_bid_excludes,
        landed_cost_usd: f.landed_cost_usd,
        landed_excludes: f.landed_excludes,
        notes: row.notes,
        url: lotPageUrl(row.platform, row.lot_number),
        updated_at: (await this.d.store.lots.lastChangeAt(row.lot_key)) ?? row.first_seen_at,
        remind_minutes_before: w.rules.remind_minutes_before,
      });
    }
    const skipped = calendarSkipped(sales).length;
    return {
      ics: watchedSalesCalendar(sales, { now: this.d.clock.now() }),
      events: sales.length - skipped,
      skipped,
      address: this.d.calendar?.address() ?? null,
      port_fixed: this.d.calendar?.portFixed() ?? false,
    };
  }

  /**
   * A new calendar address: the old one stops working (401), for a buyer who shared it or wants a calendar app to
   * stop reading the sales.
   * @throws LotwatchError('bad_input') in the desktop app (it has no address: it exports a file), or before the
   *   browser shell listens.
   */
  async renewCalendar(): Promise<MethodOutput<'plan.renewCalendar'>> {
    const address = (await this.d.calendar?.renew()) ?? null;
    if (!this.d.calendar || address === null) {
      throw new LotwatchError(
        'bad_input',
        'The desktop app has no calendar address. Use Export calendar (.ics) instead.',
      );
    }
    return { address, port_fixed: this.d.calendar.portFixed() };
  }
}
