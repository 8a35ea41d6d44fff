import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { DEMO_KEY, startSandbox, type Sandbox } from '../../helpers/sandbox';

// Delivery through the engine: quiet hours hold alerts for one digest, reminders fire once before the auction.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
let sb: Sandbox;
let clock: FakeClock;

beforeAll(async () => {
  clock = new FakeClock(START);
  // Every market change visible at once: these tests check an alert right after the sale.
  sb = await startSandbox({
    seed: 13,
    lots: 3000,
    startTime: START,
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    refresh: 'instant',
  });
});
afterAll(async () => sb.dispose());
const startCore = coresPerTest();
/** A core in Demo mode on this sandbox and the market's clock; over `dir` when given (a restart). */
const setup = (dir?: string) => startCore({ sandbox: sb, clock, dir });

describe('delivery', () => {
  it('holds alerts in quiet hours and sends one digest when they end; the inbox has every alert', async () => {
    const { core, value, shown } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN)!;
    // Bid changes too, so the quiet hours hold more than one alert (the sale itself is one alert).
    const w = await value('watchlist.add', {
      target: lot.lotNumber,
      rules: { kinds: ['bid_changed', 'sale_result'] },
    });
    // Quiet from now until two hours after the sale (UTC, as the test's time zone).
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    await value('settings.update', {
      quietHours: { enabled: true, start: hhmm(clock.now() - MIN), end: hhmm(lot.auctionAt + 2 * 60 * MIN) },
    });
    clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
    await value('watchlist.checkNow', { id: w['id'] });
    const inbox = (await value('alerts.list'))['alerts'] as {
      kind: string;
      delivery: string;
      status: string;
    }[];
    expect(inbox.length).toBeGreaterThanOrEqual(2);
    expect(inbox.every((a) => a.delivery === 'digest' && a.status === 'digest')).toBe(true);
    expect(shown).toEqual([]);
    clock.advanceTo(lot.auctionAt + 2 * 60 * MIN + MIN);
    await core.engine.runDue();
    expect(shown).toHaveLength(1);
    expect(shown[0]!.title).toMatch(/alert/i);
    await core.engine.runDue();
    expect(shown).toHaveLength(1);
    const after = (await value('alerts.list'))['alerts'] as { status: string }[];
    expect(after.every((a) => a.status === 'delivered')).toBe(true);
  });

  it('names the alerts a stopped run left claimed in one notice at the next start, and shows none of them twice', async () => {
    const first = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN)!;
    const w = await first.value('watchlist.add', {
      target: lot.lotNumber,
      rules: { kinds: ['sale_result'] },
    });
    clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
    await first.value('watchlist.checkNow', { id: w['id'] });
    const sale = ((await first.value('alerts.list'))['alerts'] as { id: number; title: string }[])[0]!;
    expect(first.shown.map((n) => n.title)).toEqual([sale.title]);
    await first.core.dispose();
    // The moment between the outbox's claim and its mark, as a kill -9 leaves it: the row stays claimed.
    const raw = openDatabase(first.dbPath);
    raw.prepare("UPDATE alerts SET status = 'claimed' WHERE id = ?").run(sale.id);
    raw.close();

    const second = await setup(first.dir);
    second.core.engine.start();
    await second.core.engine.idle();
    expect(second.shown).toEqual([{ title: 'Lotwatch stopped while showing an alert', body: sale.title }]);
    const inbox = (await second.value('alerts.list'))['alerts'] as {
      id: number;
      kind: string;
      status: string;
    }[];
    expect(inbox.find((a) => a.id === sale.id)!.status).toBe('recovered');
    expect(inbox.filter((a) => a.kind === 'digest').map((a) => a.status)).toEqual(['delivered']);
    await second.core.dispose();

    const third = await setup(first.dir);
    third.core.engine.start();
    await third.core.engine.idle();
    expect(third.shown).toEqual([]);
  });

  it('reminds once, N minutes before a watched auction', async () => {
    const { core, value, shown } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 60 * MIN)!;
    await value('watchlist.add', {
      target: lot.lotNumber,
      rules: { remind_minutes_before: [30], kinds: [] },
    });
    core.engine.start();
    await core.engine.idle();
    clock.advanceTo(lot.auctionAt - 31 * MIN);
    await core.engine.runDue();
    expect(shown.filter((n) => /30 min/.test(n.title))).toEqual([]);
    clock.advanceTo(lot.auctionAt - 29 * MIN);
    await core.engine.runDue();
    clock.advanceTo(lot.auctionAt - 20 * MIN);
    await core.engine.runDue();
    expect(shown.filter((n) => /30 min/.test(n.title))).toHaveLength(1);
  });
});

describe('quota exhausted', () => {
  it('pauses polling after a 429 and says why, without crashing or spending more', async () => {
    const small = await startSandbox({
      seed: 13,
      lots: 500,
      startTime: START,
      speed: 0,
      now: () => clock.now(),
      ratePerSecond: 0,
      quota: { limit: 5, periodMs: 86_400_000 },
    });
    const { core } = await startCore({ sandbox: small, clock });
    const lot = small.market.sorted.find((l) => l.subStatus === 'Open')!;
    const added = await core.invoke('watchlist.add', { target: lot.lotNumber });
    expect(added, JSON.stringify(added)).toMatchObject({ ok: true });
    const s = await core.invoke('searches.create', { name: 'All', params: {}, schedule: '* * * * *' });
    expect(s.ok).toBe(true);
    const id = (s as { value: { id: number } }).value.id;
    // Another program spends the rest of the key's quota behind Lotwatch's back: its next request gets a 429.
    for (let i = 0; i < 4; i++) await fetch(`${small.baseUrl}/usage`, { headers: { 'X-API-Key': DEMO_KEY } });
    const run = await core.invoke('searches.runNow', { id });
    expect(run, JSON.stringify(run)).toMatchObject({ ok: true, value: { status: 'error', requests: 1 } });
    // The spent quota is said as a date from the period's end, never as seconds to wait.
    const periodEnd = await core.call('status.get', undefined);
    const end = periodEnd.quota!.periodEnd!;
    expect(end).toBeGreaterThan(clock.now());
    const day = format(end, 'd MMMM yyyy');
    const searches = await core.call('searches.list', undefined);
    expect(searches[0]!.last_error).toBe(`Your plan's monthly requests are used up until ${day}.`);
    const status = await core.call('status.get', undefined);
    expect(status).toMatchObject({ paused_until: end, pause_kind: 'quota_spent' });
    expect(status.pause_reason).toBe(`Your plan's monthly requests are used up until ${day}.`);
    expect(status.pause_reason).not.toMatch(/\d+ s\b|seconds/);
    const before = (await core.call('requests.list', undefined)).rows.length;
    core.engine.start();
    for (let i = 0; i < 5; i++) {
      clock.advanceTo(clock.now() + 5 * MIN);
      await core.engine.runDue();
    }
    const after = (await core.call('requests.list', undefined)).rows.length;
    expect(after).toBe(before);
    // More failed calls in the same period (the user's own) raise no second alert: one per period.
    await core.invoke('searches.runNow', { id });
    await core.invoke('searches.runNow', { id });
    const alerts = await core.call('alerts.list', undefined);
    const quota = alerts.alerts.filter((a) => a.kind === 'quota_low');
    expect(quota).toHaveLength(1);
    expect(quota[0]!.body).toContain(`used up until ${day}`);
    // When the period has ended, polling starts again by itself.
    clock.advanceTo(end + MIN);
    await core.engine.runDue();
    await core.engine.idle();
    const resumed = (await core.call('requests.list', undefined)).rows.length;
    // The watched lot's check at least: on the default 3 a day, the search yields to what the watchlist needs.
    expect(resumed).toBeGreaterThan(after);
    // (The sandbox's tiny plan of 5 a day is spent again at once: paused, but until the new period's end.)
    const later = await core.call('status.get', undefined);
    expect(later.paused_until === null || later.paused_until > end).toBe(true);
    await small.dispose();
  });
});
