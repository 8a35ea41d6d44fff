import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAs, type Actor } from '../../../src/core/actor';
import type { LotwatchError } from '../../../src/core/errors';
import type { MethodOutput, WatchView } from '../../../src/shared/ipc/contract';
import { landedCost } from '../../../src/shared/fees';
import { resolveCosts } from '../../../src/shared/shipping';
import type { TestCore } from '../../helpers/buildCore';
import { coreEngines, placesPerTest, type EnginePlace } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// The max bid a buyer keeps for themselves (PERSONAL_RULE_FIELDS in src/shared/team.ts, src/core/team/personal.ts),
// through createCore and runAs as a team server runs each member's request, on a team's PostgreSQL database: each
// member's watchlist.setRules keeps their max bid (and mute and snooze) in their own row and the rest in the team's
// rules; the watchlist, the desk, the CSV show each member their own; the team's rules (the local owner's, which the
// watcher alerts from) stay. On the desktop's SQLite file the max bid is the watch's rules' as before.

/** Wed 10 June 2026, 12:00 UTC. */
const START = Date.UTC(2026, 5, 10, 12, 0, 0);
const ANA: Actor = { userId: 1, name: 'Ana', role: 'buyer' };
const BEN: Actor = { userId: 2, name: 'Ben', role: 'buyer' };

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 36, lots: 120, startTime: START, speed: 0, ratePerSecond: 0 });
});
afterAll(async () => sb.dispose());

/**
 * A ready core over a fresh place of `places` (coreEngines.ts: a folder, and on PostgreSQL a database of its own), on
 * the sandbox.
 */
async function place(places: () => Promise<EnginePlace>): Promise<TestCore> {
  return (await places()).start({ sandbox: sb, clock: new FakeClock(START) });
}

/** An open Copart lot of the sandbox with a bid, its sale more than a day ahead. */
const openLot = () =>
  sb.market.sorted.find(
    (l) =>
      l.platform === 'copart' &&
      l.subStatus === 'Open' &&
      l.currentBid > 0 &&
      l.auctionAt > START + 86_400_000,
  )!;

/** `core.call` as `who` (a team server runs each request so). */
function as<T>(t: TestCore, who: Actor, fn: (call: TestCore['core']['call']) => Promise<T>): Promise<T> {
  return runAs(who, () => fn(t.core.call.bind(t.core)));
}

/** The watch as `who` sees it on their watchlist (the local owner: `who` null). */
async function listed(t: TestCore, who: Actor | null, id: number): Promise<WatchView> {
  const list = who
    ? await as(t, who, (call) => call('watchlist.list', undefined))
    : await t.core.call('watchlist.list', undefined);
  return list.find((w) => w.id === id)!;
}

/** The lot's desk as `who` sees it. */
function desk(t: TestCore, who: Actor | null, lotKey: string): Promise<MethodOutput<'desk.lot'>> {
  return who
    ? as(t, who, (call) => call('desk.lot', { lot_key: lotKey }))
    : t.core.call('desk.lot', { lot_key: lotKey });
}

/** The max bid column of the lot's CSV row as `who` exports it. */
async function csvMaxBid(t: TestCore, who: Actor, lotKey: string): Promise<string> {
  const out = await as(t, who, (call) => call('library.export', { lot_keys: [lotKey] }));
  return (parse(out.csv, { columns: true }) as Record<string, string>[])[0]!.max_bid_usd!;
}

const PG = coreEngines().find((e) => e.name === 'postgres')!;
const SQLITE = coreEngines().find((e) => e.name === 'sqlite')!;

describe.skipIf(PG.skip)('each member’s own max bid on a team’s PostgreSQL', () => {
  const places = placesPerTest(PG);
  /** A core with the team's watch of an open lot, its rules holding the team's max bid of 3,000 USD. */
  async function watched(): Promise<{ t: TestCore; w: WatchView; lotKey: string }> {
    const t = await place(places);
    const added = await t.core.call('watchlist.add', { target: openLot().lotNumber });
    const w = await t.core.call('watchlist.setRules', {
      id: added.id,
      rules: {
        max_bid_usd: 3000,
        max_bid_near_percent: 90,
        target_landed_usd: 4500,
        max_bid_excludes: ['shipping'],
      },
    });
    return { t, w, lotKey: w.lot_key! };
  }

  it('Ana and Ben each keep their own max bid: their watchlist, desk and CSV show theirs, the team’s rules stay', async () => {
    const { t, w, lotKey } = await watched();
    // A member who set none sees none, not the team's.
    const before = await listed(t, BEN, w.id);
    expect([before.rules.max_bid_usd, before.rules.target_landed_usd, before.desk?.max_bid_usd]).toEqual([
      null,
      null,
      null,
    ]);
    expect((await desk(t, BEN, lotKey)).desk.max_bid_usd).toBeNull();

    t.clock.advance(60_000);
    const ana = await as(t, ANA, (call) =>
      call('watchlist.setRules', { id: w.id, rules: { max_bid_usd: 5000 } }),
    );
    expect([ana.rules.max_bid_usd, ana.desk?.max_bid_usd]).toEqual([5000, 5000]);
    await as(t, BEN, (call) => call('watchlist.setRules', { id: w.id, rules: { max_bid_usd: 4200 } }));

    for (const [who, max] of [
      [ANA, 5000],
      [BEN, 4200],
    ] as const) {
      const v = await listed(t, who, w.id);
      expect([v.rules.max_bid_usd, v.desk?.max_bid_usd], who.name).toEqual([max, max]);
      // The desk: the member's max bid, the landed cost at it (the bid range's target) and what that leaves out.
      const d = await desk(t, who, lotKey);
      const settings = await as(t, who, (call) => call('settings.get', undefined));
      const costs = resolveCosts(d.shipping, settings.desk);
      const at = landedCost({
        bid_usd: max,
        schedule: d.fee_table.schedule!,
        shipping_usd: costs.shipping_usd,
        lines: costs.lines,
        opts: { custom: settings.desk.custom_fees, omit: settings.desk.omit_fees },
      });
      expect(d.desk.max_bid_usd, who.name).toBe(max);
      expect(d.bid_range.target_usd, who.name).toBe(at.total_usd);
      expect(d.desk.max_bid_excludes, who.name).toEqual(costs.gaps.map((g) => g.part));
      expect(await csvMaxBid(t, who, lotKey), who.name).toBe(String(max));
    }
    // The team's rules (the local owner's, which the watcher alerts from) are as they were, not even re-saved.
    const team = await listed(t, null, w.id);
    expect(team.rules).toEqual(w.rules);
    expect(team.updated_at).toBe(w.updated_at);
    expect((await desk(t, null, lotKey)).desk).toMatchObject({
      max_bid_usd: 3000,
      max_bid_excludes: ['shipping'],
    });
    expect((await desk(t, null, lotKey)).bid_range.target_usd).toBe(4500);
  });

  it('a member’s save splits: the team’s fields to the team (checked for a stale copy), their max bid, mute and snooze to them', async () => {
    const { t, w } = await watched();
    // Ana's form sends back every field it showed, with her max bid and a team threshold changed.
    t.clock.advance(60_000);
    const mine = await listed(t, ANA, w.id);
    const saved = await as(t, ANA, (call) =>
      call('watchlist.setRules', {
        id: w.id,
        rules: {
          ...mine.rules,
          max_bid_usd: 5100,
          bid_above_usd: 2500,
          muted: true,
          target_landed_usd: 9000,
        },
        expected_updated_at: mine.updated_at,
      }),
    );
    expect(saved.rules).toMatchObject({ max_bid_usd: 5100, bid_above_usd: 2500, muted: true });
    const team = await listed(t, null, w.id);
    // The team's threshold changed; its max bid, its details and its mute did not.
    expect(team.rules).toEqual({ ...w.rules, bid_above_usd: 2500 });
    expect(team.updated_at).toBeGreaterThan(w.updated_at);
    expect(await listed(t, BEN, w.id)).toMatchObject({
      rules: { max_bid_usd: null, bid_above_usd: 2500, muted: false },
    });

    // Ben saves from the copy he read before Ana's save: refused, and his max bid in it is not kept either.
    const stale = await as(t, BEN, (call) =>
      call('watchlist.setRules', {
        id: w.id,
        rules: { bid_above_usd: 2600, max_bid_usd: 4000 },
        expected_updated_at: w.updated_at,
      }),
    ).catch((e: unknown) => e as LotwatchError);
    expect((stale as LotwatchError).code).toBe('conflict');
    expect((stale as LotwatchError).message).toMatch(
      /^Changed by .* Reload it and make your change again\.$/,
    );
    expect((await listed(t, BEN, w.id)).rules).toMatchObject({ max_bid_usd: null, bid_above_usd: 2500 });

    // Ana's form again, with only her max bid changed: the team's rules are not re-saved, her mute stays.
    t.clock.advance(60_000);
    const again = await listed(t, ANA, w.id);
    await as(t, ANA, (call) =>
      call('watchlist.setRules', {
        id: w.id,
        rules: { ...again.rules, max_bid_usd: 5200 },
        expected_updated_at: again.updated_at,
      }),
    );
    const after = await listed(t, null, w.id);
    expect(after.updated_at).toBe(team.updated_at);
    expect((await listed(t, ANA, w.id)).rules).toMatchObject({
      max_bid_usd: 5200,
      muted: true,
      bid_above_usd: 2500,
    });
  });
});

describe('the desktop’s max bid on SQLite', () => {
  const places = placesPerTest(SQLITE);
  it('is the watch’s rules’, as before: saved there and shown by the watchlist and the desk', async () => {
    const t = await place(places);
    const added = await t.core.call('watchlist.add', { target: openLot().lotNumber });
    const w = await t.core.call('watchlist.setRules', {
      id: added.id,
      rules: { max_bid_usd: 3100, bid_above_usd: 1500 },
      expected_updated_at: added.updated_at,
    });
    expect(w.rules).toMatchObject({ max_bid_usd: 3100, bid_above_usd: 1500 });
    expect((await listed(t, null, w.id)).desk?.max_bid_usd).toBe(3100);
    expect((await desk(t, null, w.lot_key!)).desk.max_bid_usd).toBe(3100);
    expect(t.db.prepare('SELECT count(*) AS n FROM lot_user_prefs').get()).toEqual({ n: 0 });
  });
});
