import type { Clock } from '../clock';
import type { LotRow } from '../db/lotsRepo';
import type { MarketAnswer, MarketBand, MarketCompsRepo } from '../db/marketCompsRepo';
import { bandKey } from '../db/marketCompsRepo';
import { LotwatchError } from '../errors';
import type { MethodOutput } from '../../shared/ipc/contract';
import { YEAR_SPAN } from '../db/comps';
import type { Async } from '../db/async';

/** How long an Ended search's answer serves every lot of its band without asking again (ms): a day. */
export const MARKET_MAX_AGE_MS = 86_400_000;
/** Records per page of the Ended search: the specification's largest `per_page` (docs/service-contract.md "Plans and quota"). */
export const MARKET_PER_PAGE = 20;
/** Pages an Ended search reads at most: the second only when the first was full and has a next cursor. */
export const MARKET_MAX_PAGES = 2;

/** One page of GET /vehicles as the desk needs it: the stored lots' keys, how many had ended, the next cursor. */
export interface MarketPage {
  keys: string[];
  ended: number;
  next_cursor: string | null;
}

/**
 * `MarketDeps.searchPage` over the live search path (ExploreService.search: the page's records stored as any fetched
 * lot, so they become comparables): the lot keys of the page, how many have ended, and the next page's cursor.
 */
export function searchPageVia(
  search: (i: { params: Record<string, unknown>; cursor?: string }) => Promise<{
    lots: { lot_key: string; outcome: string }[];
    meta: { next_cursor?: string | null } | null;
  }>,
): MarketDeps['searchPage'] {
  return async (params, cursor) => {
    const { lots, meta } = await search({ params, ...(cursor ? { cursor } : {}) });
    return {
      keys: lots.map((l) => l.lot_key),
      ended: lots.filter((l) => l.outcome !== 'open').length,
      next_cursor: meta?.next_cursor ?? null,
    };
  };
}

/** What the market comparables need: their table, the clock, where answers come from, and one search page. */
export interface MarketDeps {
  repo: Async<MarketCompsRepo>;
  clock: Clock;
  /** "demo" or the service URL: an answer from the Demo market never stands for the real service's. */
  source: () => string;
  /**
   * One page of GET /vehicles with `params` (and `cursor` after the first), its records stored as any fetched lot
   * (ExploreService.search). Throws the service's errors (ApiError and its kinds).
   */
  searchPage: (params: Record<string, unknown>, cursor: string | null) => Promise<MarketPage>;
}

/** What `status` tells the lot page about a lot's band: whether it can be asked, and its stored answer. */
export type MarketStatus = MethodOutput<'desk.lot'>['market'];

/** The band of a stored lot: its own platform, make, model and year +-1; null without all four. */
export function bandOfLot(
  row: Pick<LotRow, 'platform' | 'make' | 'model' | 'year'>,
  source: string,
): MarketBand | null {
  const make = row.make?.trim() ?? '';
  const model = row.model?.trim() ?? '';
  if (make === '' || model === '' || row.year === null || !Number.isSafeInteger(row.year)) return null;
  return {
    source,
    platform: row.platform,
    make: make.toUpperCase(),
    model: model.toUpperCase(),
    year_from: row.year - YEAR_SPAN,
    year_to: row.year + YEAR_SPAN,
  };
}

/** The sentence of a failed attempt: the error's own message (core's messages say what happened, with the status). */
const sentenceOf = (e: unknown): string =>
  e instanceof Error && e.message.trim() !== '' ? e.message : 'The search for ended lots failed.';

/**
 * Market comparables (docs/architecture.md "The buyer's desk"): the sold lots of a lot's platform, make, model and
 * model year +-1 from the whole market, asked once a day per band with GET /vehicles `lot_sub_status=Ended`
 * (docs/service-contract.md "Searching ended lots"), stored as lots with their sale results through the search
 * path, so comparable sales read them offline from the store afterwards. The lot's own platform only: prices and
 * fees differ between Copart and IAAI, and one platform's 20 records a page are 20 of the most relevant sales
 * instead of two halves (the other platform's stored lots still count).
 */
export class MarketComps {
  private readonly inFlight = new Map<string, Promise<MethodOutput<'desk.marketComps'>>>();

  constructor(private readonly d: MarketDeps) {}

  /** The band of a stored lot from the current source, or null (no make, model or year). */
  band(row: Pick<LotRow, 'platform' | 'make' | 'model' | 'year'>): MarketBand | null {
    return bandOfLot(row, this.d.source());
  }

  /** True when `a` answered less than a day ago (by the injected clock). */
  private fresh(a: MarketAnswer | null, now: number): a is MarketAnswer & { fetched_at: number } {
    return a?.fetched_at != null && now - a.fetched_at >= 0 && now - a.fetched_at < MARKET_MAX_AGE_MS;
  }

  /**
   * What the lot page shows of a lot's band: null without a band; else the band, its stored answer (when, how
   * many lots, what it cost), whether it is fresh (a visit now costs 0 requests), and the last failed attempt.
   * Reads the store only; rejects with database errors only.
   */
  async status(row: Pick<LotRow, 'platform' | 'make' | 'model' | 'year'>): Promise<MarketStatus> {
    const band = this.band(row);
    if (!band) return null;
    const a = await this.d.repo.get(band);
    const now = this.d.clock.now();
    return {
      platform: band.platform,
      make: band.make,
      model: band.model,
      year_from: band.year_from,
      year_to: band.year_to,
      fetched_at: a?.fetched_at ?? null,
      found: a?.lot_keys.length ?? 0,
      requests: a?.requests ?? 0,
      fresh: this.fresh(a, now),
      error: a?.error ?? null,
      error_at: a?.error_at ?? null,
    };
  }

  /**
   * The market comparables of a stored lot's band: served from the stored answer when it is younger than a day
   * (0 requests); else one GET /vehicles (`platform`, `make`, `model`, `year_from`/`year_to` = year +-1,
   * `lot_sub_status=Ended`, `per_page` 20) and a second page only when the first was full and has a next cursor.
   * The answer replaces the band's stored one. Visits of one band at the same moment share one search.
   *
   * @returns requests spent (0, 1 or 2), lots found and ended, when the answer came (ms), `cached`, and a warning
   *   when the second page failed (the first page's answer is kept).
   * @throws LotwatchError not_found when the lot is not stored; bad_input when it has no make, model or year; the
   *   service's errors when the first page fails (the failure is recorded with the band and its stored answer
   *   stays, read again by `status`).
   */
  fetch(row: LotRow | null): Promise<MethodOutput<'desk.marketComps'>> {
    if (!row)
      throw new LotwatchError(
        'not_found',
        'This lot is not stored on this computer yet. Open it once first.',
      );
    const band = this.band(row);
    if (!band)
      throw new LotwatchError(
        'bad_input',
        'Market comparables need the lot’s make, model and year, and this lot has not all of them stored.',
      );
    const key = bandKey(band);
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.ask(band).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, p);
    }
    return p;
  }

  private async ask(band: MarketBand): Promise<MethodOutput<'desk.marketComps'>> {
    const before = await this.d.repo.get(band);
    if (this.fresh(before, this.d.clock.now())) {
      return {
        requests: 0,
        cached: true,
        fetched_at: before.fetched_at,
        found: before.lot_keys.length,
        pages: before.pages,
        warning: null,
      };
    }
    const params: Record<string, unknown> = {
      platform: band.platform,
      make: band.make,
      model: band.model,
      year_from: band.year_from,
      year_to: band.year_to,
      lot_sub_status: 'Ended',
      per_page: MARKET_PER_PAGE,
    };
    let first: MarketPage;
    try {
      first = await this.d.searchPage(params, null);
    } catch (e) {
      await this.d.repo.fail(band, this.d.clock.now(), sentenceOf(e));
      throw e;
    }
    const keys = [...first.keys];
    let requests = 1;
    let warning: string | null = null;
    if (first.keys.length >= MARKET_PER_PAGE && first.next_cursor && MARKET_MAX_PAGES > 1) {
      requests++;
      try {
        const second = await this.d.searchPage(params, first.next_cursor);
        for (const k of second.keys) if (!keys.includes(k)) keys.push(k);
      } catch (e) {
        warning = `The second page failed, so the answer is the first page's ${first.keys.length} lots: ${sentenceOf(e)}`;
      }
    }
    const at = this.d.clock.now();
    await this.d.repo.put(band, at, keys, requests, warning ? 1 : requests);
    return {
      requests,
      cached: false,
      fetched_at: at,
      found: keys.length,
      pages: warning ? 1 : requests,
      warning,
    };
  }

  /**
   * One pass of the market comparables of watched lots, at low value: for each band of `rows` (the watched lots)
   * with no answer younger than a day and no failure in the last day, one Ended search while `spare(2)` says the
   * budget has room beyond the planned polls (2: a band may take a second page), at most `maxBands` bands. A failure
   * is recorded with its band (fetch) and the pass goes on. Resolves with the bands asked and the requests spent.
   */
  async autoPass(
    rows: readonly LotRow[],
    spare: (n: number) => boolean,
    maxBands = 5,
  ): Promise<{ bands: number; requests: number }> {
    const seen = new Set<string>();
    let bands = 0;
    let requests = 0;
    for (const row of rows) {
      if (bands >= maxBands) break;
      const band = this.band(row);
      if (!band || seen.has(bandKey(band))) continue;
      seen.add(bandKey(band));
      const a = await this.d.repo.get(band);
      const now = this.d.clock.now();
      if (this.fresh(a, now)) continue;
      if (a?.error_at != null && now - a.error_at >= 0 && now - a.error_at < MARKET_MAX_AGE_MS) continue;
      if (!spare(MARKET_MAX_PAGES)) break;
      bands++;
      try {
        requests += (await this.fetch(row)).requests;
      } catch {
        requests++; // recorded with the band by fetch; the next band may still go
      }
    }
    return { bands, requests };
  }
}
