import type { CallWatchesRepo } from '../db/callWatchesRepo';
import type { CallWatchService } from '../calls/service';
import type { CallTarget } from '../../shared/callWatch';
import type { DemoLiveBid } from '../../shared/demoShowcase';
import type { MethodOutput } from '../../shared/ipc/contract';
import type { Vehicle } from '../../shared/vehicle';
import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { CacheRepo } from '../db/cacheRepo';
import { parseAuctionAt } from '../diff';
import type { SearchesRepo } from '../db/searchesRepo';
import type { Async, Transact } from '../db/async';
import type { WatchesRepo } from '../db/watchesRepo';
import type { Logger } from '../log';
import type { SearchesService } from '../searches/service';
import type { WatchEngine } from '../watch/engine';
import type { WatchlistService } from '../watchlist/service';
import { firstAlertAt, pickShowcase } from './showcase';

/** The cache key of the time (ms) the first Demo example alert is expected, and of the intro panel's dismissal. */
const FIRST_ALERT_KEY = 'examples:first-alert-at';
const INTRO_FLAG = 'demo-intro-dismissed';

/** What Demo mode's examples need: the example rows, the one-time flags, the engine, and the two modules they use. */
export interface DemoDeps {
  searchRows: Pick<
    Async<SearchesRepo>,
    'deleteExampleSearches' | 'activeExampleIds' | 'setExamplePaused' | 'exampleCount'
  >;
  watchRows: Pick<Async<WatchesRepo>, 'deleteExampleWatches' | 'exampleCount'>;
  /** Demo mode's example call watch: made with the other examples, removed with them. */
  callRows?: Pick<Async<CallWatchesRepo>, 'removeExamples' | 'exampleCount'>;
  calls?: Pick<CallWatchService, 'create'>;
  /** The Demo service's example call (DemoEndpoint.callExample), or null when it offers none. */
  callExample?: () => Promise<{ name: string; target: CallTarget } | null>;
  cache: Async<CacheRepo>;
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: Transact;
  engine: Pick<WatchEngine, 'refresh'>;
  clock: Clock;
  log: Logger;
  /** The client for the current key and mode, or null. */
  client: () => ApiClient | null;
  /** Whether Demo mode is on. */
  demoMode: () => boolean;
  watchlist: Pick<WatchlistService, 'addWatch'>;
  searches: Pick<SearchesService, 'createSearch'>;
  /**
   * The Demo market's next bids on the block (its ground truth, from the shell's built-in sandbox), or absent: the
   * examples are then the soonest sales of the first page.
   */
  liveBids?: () => Promise<DemoLiveBid[]>;
}

/**
 * Demo mode's examples: a sample saved search and three watched lots made on the first start, paused while Demo
 * mode is off (they would spend the real key), resumed when it is on again, removed in one click.
 */
export class DemoService {
  constructor(private readonly d: DemoDeps) {}

  /**
   * Demo mode's first start: a sample saved search and three watched lots whose auctions are minutes away, marked as
   * examples (one click removes them), so a new user sees alerts arrive within minutes. Once per data folder; a
   * failure is logged, never thrown.
   */
  async seed(): Promise<void> {
    const client = this.d.client();
    if (!client || !this.d.demoMode() || !(await this.once('demo-examples'))) return;
    try {
      if (!(await this.seedShowcase())) {
        const page = (await client.searchVehicles({ per_page: 20 })).data.filter((v) => v.lot_number);
        const now = this.d.clock.now();
        const later = page.filter((v: Vehicle) => {
          const t = parseAuctionAt(v.auction.auction_at);
          return t !== null && t > now + 2 * 60_000;
        });
        // The soonest auctions at least two minutes away; on a fast demo clock, the latest of the first page.
        const picks = later.length >= 3 ? later.slice(0, 3) : page.slice(-3);
        for (const v of picks) {
          await this.d.watchlist.addWatch(
            { target: v.lot_number!, label: 'Example', rules: undefined },
            true,
          );
        }
      }
      await this.d.searches.createSearch(
        {
          name: 'Example: Tesla Model 3',
          params: { make: 'TESLA', model: 'MODEL 3' },
          schedule: '*/10 * * * *',
          max_pages: 5,
        },
        true,
      );
      const call = (await this.d.callExample?.()) ?? null;
      if (call && this.d.calls)
        await this.d.calls.create({ name: call.name, target: call.target, schedule: '*/10 * * * *' }, true);
    } catch (e) {
      this.d.log.warn('the Demo mode examples could not be created', { error: (e as Error).message });
    }
  }

  /**
   * The examples from the Demo market's next bids on the block (showcase.ts pickShowcase): each watched with a
   * "bid reached" rule at its coming bid, so the first alert comes when that bid shows (a bid moving is what a new
   * user can see within minutes; a sale result waits for the service's refresh of up to 15 minutes). Records when
   * the first alert is expected (examplesIntro). Returns false when the market offers no such lot (nothing added).
   */
  private async seedShowcase(): Promise<boolean> {
    const picks = pickShowcase((await this.d.liveBids?.()) ?? [], this.d.clock.now());
    if (!picks.length) return false;
    for (const p of picks) {
      await this.d.watchlist.addWatch(
        { target: p.lot_number, label: 'Example', rules: { bid_above_usd: p.bid_usd } },
        true,
      );
    }
    const at = firstAlertAt(picks);
    if (at !== null) await this.d.cache.put(FIRST_ALERT_KEY, String(at), this.d.clock.now());
    return true;
  }

  /**
   * What the first-run panel of Demo mode says: when the first example alert is expected (ms since the epoch; null
   * when unknown, e.g. examples made before this was recorded) and whether the user dismissed the panel.
   */
  async examplesIntro(): Promise<MethodOutput<'examples.intro'>> {
    const r = await this.d.cache.get(FIRST_ALERT_KEY);
    const at = r ? Number(r.value) : NaN;
    return {
      first_alert_expected_at: Number.isFinite(at) ? at : null,
      dismissed: (await this.d.cache.get(`flag:${INTRO_FLAG}`)) !== null,
    };
  }

  /** The user closed the first-run panel: it is not shown again for this data folder. */
  async dismissIntro(): Promise<MethodOutput<'examples.dismissIntro'>> {
    await this.once(INTRO_FLAG);
    return { ok: true };
  }

  /**
   * Removes every Demo-mode example (saved searches, watches and call watches marked `is_example`) and returns how many of each
   * went. Throws nothing but database errors.
   */
  async removeExamples(): Promise<MethodOutput<'examples.remove'>> {
    const n = await this.exampleCounts();
    await this.d.transaction(async () => {
      await this.d.searchRows.deleteExampleSearches();
      await this.d.watchRows.deleteExampleWatches();
      await this.d.callRows?.removeExamples();
      await this.d.cache.delete('examples:paused');
    });
    await this.d.engine.refresh();
    return n;
  }

  /**
   * Demo mode was turned off: the example saved searches are paused (their ids remembered, so turning Demo mode on
   * again resumes exactly these), because they would otherwise run against the user's real key and quota. Example
   * watches need no flag: the engine polls them only in Demo mode. Returns how many examples there are.
   */
  async pauseExamples(): Promise<MethodOutput<'examples.remove'>> {
    const n = await this.exampleCounts();
    const now = this.d.clock.now();
    await this.d.transaction(async () => {
      const ids = await this.d.searchRows.activeExampleIds();
      const before = await this.pausedExampleIds();
      for (const id of ids) await this.d.searchRows.setExamplePaused(id, true, now);
      if (ids.length || before.length)
        await this.d.cache.put('examples:paused', JSON.stringify([...new Set([...before, ...ids])]), now);
    });
    await this.d.engine.refresh();
    return n;
  }

  /** Demo mode is on again: resumes the example searches that pauseExamples paused (not ones the user paused). */
  async resumeExamples(): Promise<void> {
    const now = this.d.clock.now();
    await this.d.transaction(async () => {
      for (const id of await this.pausedExampleIds())
        await this.d.searchRows.setExamplePaused(id, false, now);
      await this.d.cache.delete('examples:paused');
    });
    await this.d.engine.refresh();
  }

  /** How many example searches and watches there are (read in one transaction). */
  private exampleCounts(): Promise<MethodOutput<'examples.remove'>> {
    return this.d.transaction(async () => ({
      searches: await this.d.searchRows.exampleCount(),
      watches: await this.d.watchRows.exampleCount(),
      calls: (await this.d.callRows?.exampleCount()) ?? 0,
    }));
  }

  /** The example searches pauseExamples paused (kept in the cache table); none when the kept list is unreadable. */
  private async pausedExampleIds(): Promise<number[]> {
    const r = await this.d.cache.get('examples:paused');
    try {
      const ids = r ? (JSON.parse(r.value) as unknown) : [];
      return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
    } catch {
      return [];
    }
  }

  /** Whether a one-time flag was not set yet (e.g. Demo examples created), and sets it. Rejects with database errors. */
  async once(flag: string): Promise<boolean> {
    const had = (await this.d.cache.get(`flag:${flag}`)) !== null;
    if (!had) await this.d.cache.put(`flag:${flag}`, '1', this.d.clock.now());
    return !had;
  }
}
