import { describe, expect, it } from 'vitest';
import type { Attempts } from '../../../src/shared/ipc/contract/lots';
import { coresPerTest } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// A relisted VIN's attempts against the sandbox over real HTTP (the real wire shape), compared with what the
// history endpoint answers. It relies on the sandbox's test controls (forceSale, forceRelist, advance), on its
// history listing the VIN's sales only (sold and sold on approval, dated by the sale's UTC day, no lot number), and
// on an Ended search by VIN returning the VIN's finished lots.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const DAY = 86_400_000;
let sb: Sandbox;
sandboxPerFile({ seed: 28, lots: 2000, startTime: START, speed: 0, ratePerSecond: 0 }, (s) => (sb = s));
const startCore = coresPerTest();

interface SaleView {
  platform: string | null;
  date: string | null;
  price: number | null;
  outcome: string | null;
}

describe("a relisted VIN's timeline", () => {
  it('shows each attempt marked confirmed or inferred, and agrees with the history endpoint', async () => {
    const t = await startCore({ sandbox: sb });
    const m = sb.market;
    // A vehicle on its first listing, its sale a few days away, no other lot of its VIN.
    const a = m.sorted.find(
      (l) =>
        l.subStatus === 'Open' &&
        l.relistOf === null &&
        l.auctionAt > m.now + 2 * DAY &&
        (m.byVin.get(l.v.vin) ?? []).length === 1,
    )!;
    const vin = a.v.vin;
    const first = await t.value<{ summary: { lot_key: string } }>('vehicles.get', { id: a.lotNumber });

    // Its sale day comes; the seller refuses every bid and lists it again. Lotwatch saw only the new lot.
    sb.advance(a.auctionAt - sb.marketNow());
    m.forceSale(a.lotNumber, null, 'unsold');
    const b = m.forceRelist(a.lotNumber, Math.ceil((sb.marketNow() + 7 * DAY) / 60_000) * 60_000);
    t.clock.advanceTo(sb.marketNow() + 2 * DAY);
    await t.value('vehicles.get', { id: b.lotNumber });

    const offline = await t.value<Attempts>('vehicles.attempts', { id: vin });
    expect(offline.requests).toBe(0);
    expect(offline.attempts.map((x) => [x.number, x.lot_number, x.outcome, x.basis, x.sources])).toEqual([
      // Seen open, gone without a result, the vehicle back: inferred, never "unsold".
      [1, a.lotNumber, 'relisted', 'inferred', ['store']],
      [2, b.lotNumber, 'open', 'confirmed', ['store']],
    ]);

    // Asked: the history has no sale (an unsold end is not one), so the Ended search by VIN brings the result.
    const logged = async () =>
      (await t.value<{ rows: { endpoint: string }[] }>('requests.list', { limit: 1000 })).rows.map(
        (r) => r.endpoint,
      );
    const before = (await logged()).length;
    const asked = await t.value<Attempts>('vehicles.attempts', { id: first.summary.lot_key, ask: true });
    // Exactly the two requests it says it spent, as the request log shows them (newest first).
    expect((await logged()).slice(0, (await logged()).length - before)).toEqual([
      '/vehicles',
      '/vehicles/{slugVin}/history',
    ]);
    expect(asked).toMatchObject({ requests: 2, asked: { history: true, ended_search: true }, notice: null });
    expect(asked.attempts.map((x) => [x.number, x.lot_number, x.outcome, x.basis, x.sources])).toEqual([
      [1, a.lotNumber, 'ended_unsold', 'confirmed', ['store', 'ended_search']],
      [2, b.lotNumber, 'open', 'confirmed', ['store']],
    ]);

    // The relist sells on approval on its day and comes back a third time; Lotwatch again sees only the new lot.
    sb.advance(b.auctionAt - sb.marketNow());
    const price = m.findLot(b.lotNumber)!.currentBid + 700;
    m.forceSale(b.lotNumber, price, 'approval');
    const c = m.forceRelist(b.lotNumber, Math.ceil((sb.marketNow() + 7 * DAY) / 60_000) * 60_000);
    t.clock.advanceTo(sb.marketNow() + 2 * DAY);
    await t.value('vehicles.get', { id: c.lotNumber });

    const history = await t.value<{ sales: SaleView[] }>('vehicles.history', { id: vin });
    const all = await t.value<Attempts>('vehicles.attempts', { id: vin, ask: true });
    expect(all).toMatchObject({ requests: 1, asked: { history: true, ended_search: false } });
    expect(all.attempts.map((x) => [x.number, x.lot_number, x.outcome, x.basis, x.sources])).toEqual([
      // The Ended search stored the first lot's finished record: the store itself now knows its result.
      [1, a.lotNumber, 'ended_unsold', 'confirmed', ['store']],
      [2, b.lotNumber, 'sold_on_approval', 'confirmed', ['store', 'history']],
      [3, c.lotNumber, 'open', 'confirmed', ['store']],
    ]);
    // Every sale the history endpoint lists is one attempt with the same platform, day, price and outcome.
    expect(history.sales.length).toBeGreaterThan(0);
    for (const s of history.sales) {
      const same = all.attempts.filter((x) => x.sources.includes('history') && x.day === s.date);
      expect(same).toHaveLength(1);
      expect(same[0]).toMatchObject({ platform: s.platform, price_usd: s.price, outcome: s.outcome });
    }
    expect(all.signals).toMatchObject({ attempts: 3, relists: 2, approval_returns: 1 });
    expect(all.signals.facts[0]).toMatch(/^3rd attempt; last one ended on approval at \$[\d,]+$/);
  });

  it('alerts a VIN watch when the vehicle comes back for its 3rd attempt, not before', async () => {
    const t = await startCore({ sandbox: sb });
    const m = sb.market;
    const a = m.sorted.find(
      (l) =>
        l.subStatus === 'Open' &&
        l.relistOf === null &&
        l.auctionAt > m.now + 2 * DAY &&
        (m.byVin.get(l.v.vin) ?? []).length === 1,
    )!;
    const w = await t.value<{ id: number }>('watchlist.add', {
      target: a.v.vin,
      rules: { kinds: [], relist_attempt: 3 },
    });
    const alerts = async () =>
      (await t.value<{ alerts: { kind: string; title: string; body: string }[] }>('alerts.list')).alerts;
    /** The lot's sale day comes and it ends with `outcome`; the watch sees it, then the vehicle comes back. */
    const endAndRelist = async (lotNumber: string, outcome: 'unsold' | 'approval') => {
      const lot = m.findLot(lotNumber)!;
      sb.advance(lot.auctionAt - sb.marketNow());
      t.clock.advanceTo(sb.marketNow());
      m.forceSale(lotNumber, outcome === 'unsold' ? null : lot.currentBid + 500, outcome);
      await t.value('watchlist.checkNow', { id: w.id });
      const next = m.forceRelist(lotNumber, Math.ceil((sb.marketNow() + 7 * DAY) / 60_000) * 60_000);
      t.clock.advanceTo(sb.marketNow() + 1000);
      await t.value('watchlist.checkNow', { id: w.id });
      return next;
    };
    const b = await endAndRelist(a.lotNumber, 'unsold');
    expect(await alerts()).toEqual([]); // the 2nd attempt: below the rule, and relisted is not among the kinds
    const c = await endAndRelist(b.lotNumber, 'approval');
    const got = await alerts();
    expect(got.map((x) => [x.kind, x.title.replace(/^.* · /, ''), x.body.split(' · ')[0]])).toEqual([
      ['relisted', 'back for its 3rd attempt', 'Your rule: from the 3rd attempt'],
    ]);
    expect(got[0]!.body).toContain(`earlier ${b.platform} lot ${b.lotNumber}`);
    expect(got[0]!.body).toContain(`${c.platform} lot ${c.lotNumber}`);
  });

  it('works offline from the store, and says why a failing service added nothing', async () => {
    const t = await startCore({ sandbox: sb });
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open')!;
    await t.value('vehicles.get', { id: lot.lotNumber });
    sb.faults.set({ rates: { error_502: 1 }, pathContains: '/history' });
    try {
      const r = await t.value<Attempts>('vehicles.attempts', { id: lot.v.vin, ask: true });
      expect(r.notice).toMatch(
        /^The service did not answer \(.+\); the attempts below are what Lotwatch stored\.$/,
      );
      expect(r.attempts.length).toBeGreaterThan(0);
    } finally {
      sb.faults.set({});
    }
    expect(await t.value<Attempts>('vehicles.attempts', { id: 'copart:1' })).toMatchObject({
      vin: null,
      attempts: [],
      requests: 0,
      notice: 'Lotwatch has not stored this lot yet; open it once to see its attempts.',
    });
  });
});
