import { format } from 'date-fns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coresPerTest, goLive } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// Requests the user did not ask for are their money (docs/service-contract.md "Plans and quota": 100 a month on the
// free plan). Core against two sandboxes over real HTTP: one stands in for the real service with the user's key, the
// other is Demo mode's. Requests are counted in the request log (one row per request sent, retries included).
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const KEY = 'lw-real-key-for-tests';
let real: Sandbox;
let demo: Sandbox;

beforeAll(async () => {
  [real, demo] = await Promise.all([
    startSandbox({ seed: 21, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0, keys: [KEY] }),
    startSandbox({ seed: 22, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([real.dispose(), demo.dispose()]);
});
const startCore = coresPerTest();
afterEach(() => {
  real.faults.set({});
  demo.faults.set({});
});

/**
 * A ready core over a real SQLite file (kept across `restart`), in Demo mode on `demo` at START, or with `live` on the
 * "real" sandbox with the user's key; with the request log counted.
 */
async function setup(opts: { live?: boolean; examples?: boolean; autoStart?: boolean } = {}) {
  const made = await startCore({
    sandbox: demo,
    clock: new FakeClock(START),
    autoStart: opts.autoStart ?? false,
    demoExamples: opts.examples ?? false,
  });
  const env = Object.assign(made, {
    /** Requests sent so far (the request log), optionally only those of one endpoint. */
    async requests(endpoint?: string): Promise<number> {
      const rows = (await made.value<{ rows: { endpoint: string }[] }>('requests.list', { limit: 1000 }))
        .rows;
      return endpoint ? rows.filter((r) => r.endpoint === endpoint).length : rows.length;
    },
    /** Turns Demo mode off and uses the "real" sandbox with the user's key (saved for that service's URL). */
    goLive: () => goLive(made, { baseUrl: real.baseUrl!, key: KEY }),
  });
  if (opts.live) await env.goLive();
  return env;
}

describe('filter choices (GET /vehicles/filters)', () => {
  it('with a real key: fetched once a week and kept on disk, refreshed once when older, stale copy on failure', async () => {
    const env = await setup({ live: true });
    const first = await env.value<{ cached: boolean; fetched_at: number; data: object }>('vehicles.filters');
    expect(first).toMatchObject({ cached: false, fetched_at: START });
    expect(Object.keys(first.data).length).toBeGreaterThan(0);
    expect(await env.requests('/vehicles/filters')).toBe(1);

    // Every later visit to Search within the week: the stored copy, no request; also after a restart.
    for (const dt of [MIN, HOUR, 23 * HOUR, 6 * 24 * HOUR + 23 * HOUR]) {
      env.clock.advanceTo(START + dt);
      expect(await env.value('vehicles.filters')).toMatchObject({ cached: true, fetched_at: START });
    }
    await env.restart();
    expect(await env.value('vehicles.filters')).toMatchObject({ cached: true, fetched_at: START });
    expect(await env.requests('/vehicles/filters')).toBe(1);

    // Older than a week: refreshed once, however many visits arrive together.
    const WEEK = 7 * 24 * HOUR;
    env.clock.advanceTo(START + WEEK + MIN);
    const both = await Promise.all([env.value('vehicles.filters'), env.value('vehicles.filters')]);
    expect(both.map((b) => b['cached'])).toEqual([false, false]);
    expect(await env.requests('/vehicles/filters')).toBe(2);
    expect(await env.value('vehicles.filters')).toMatchObject({
      cached: true,
      fetched_at: START + WEEK + MIN,
    });

    // The refresh fails (the service is down): the stale copy is served, and the next visit tries again.
    env.clock.advanceTo(START + 2 * WEEK + HOUR);
    real.faults.set({ queue: ['error_503', 'error_503', 'error_503'], pathContains: '/filters' });
    expect(await env.value('vehicles.filters')).toMatchObject({
      cached: true,
      fetched_at: START + WEEK + MIN,
    });
    real.faults.set({});
    expect(await env.value('vehicles.filters')).toMatchObject({
      cached: false,
      fetched_at: START + 2 * WEEK + HOUR,
    });
  });

  it("follows the same rule in Demo mode, and never serves the simulated choices as the real service's", async () => {
    const env = await setup();
    expect(await env.value('vehicles.filters')).toMatchObject({ cached: false });
    expect(await env.value('vehicles.filters')).toMatchObject({ cached: true });
    expect(await env.requests('/vehicles/filters')).toBe(1);
    await env.goLive();
    expect(await env.value('vehicles.filters')).toMatchObject({ cached: false });
    expect(await env.requests('/vehicles/filters')).toBe(2);
    // Offline (no key, no service): whatever copy there is, rather than nothing.
    await env.value('key.clear');
    expect(await env.value('vehicles.filters')).toMatchObject({ cached: true });
  });
});

describe('photos that fail', () => {
  const missing = 'https://cs.copart.com/v1/AUTH_svc.pdoc00001/none/missing_thb.jpg';

  it('are not asked for again for a day (404), then once more', async () => {
    const env = await setup({ live: true });
    const first = await env.call('photos.get', { url: missing });
    expect(first.ok).toBe(false);
    const sent = await env.requests('/image-proxy');
    expect(sent).toBe(1);
    for (let i = 0; i < 5; i++) {
      env.clock.advance(HOUR);
      expect((await env.call('photos.get', { url: missing })).ok).toBe(false);
    }
    await env.restart();
    expect((await env.call('photos.get', { url: missing })).ok).toBe(false);
    expect(await env.requests('/image-proxy')).toBe(sent);
    env.clock.advanceTo(START + 24 * HOUR + MIN);
    expect((await env.call('photos.get', { url: missing })).ok).toBe(false);
    expect(await env.requests('/image-proxy')).toBe(sent + 1);
  });

  it('after a 429 too; a photo that loads later is cached as usual', async () => {
    const env = await setup({ live: true });
    const lot = real.market.sorted.find((l) => l.subStatus === 'Open')!;
    const d = await env.value<{ record: { media: { photos: string[] } }; summary: { lot_key: string } }>(
      'vehicles.get',
      { id: lot.lotNumber },
    );
    const url = d.record.media.photos[0]!;
    real.faults.set({ queue: ['burst_429', 'burst_429', 'burst_429'], pathContains: '/image-proxy' });
    const r = await env.call('photos.get', { url });
    expect(r).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    const sent = await env.requests('/image-proxy');
    real.faults.set({});
    expect((await env.call('photos.get', { url })).ok).toBe(false);
    expect(await env.requests('/image-proxy')).toBe(sent);
    env.clock.advance(24 * HOUR);
    expect(await env.value('photos.get', { url })).toMatchObject({ cached: false });
    expect(await env.value('photos.get', { url })).toMatchObject({ cached: true });
    expect(await env.requests('/image-proxy')).toBe(sent + 1);
  });
});

describe('Demo examples when Demo mode is turned off', () => {
  async function withExamples() {
    const env = await setup({ examples: true, autoStart: true });
    const searches = await env.value<{ is_example: boolean; paused: boolean }[]>('searches.list');
    const watches = await env.value<{ is_example: boolean }[]>('watchlist.list');
    expect(searches.filter((s) => s.is_example)).toHaveLength(1);
    expect(watches.filter((w) => w.is_example)).toHaveLength(3);
    return env;
  }

  /** Runs the engine over `minutes` of fake time and returns the requests it sent meanwhile. */
  async function pollFor(env: Awaited<ReturnType<typeof setup>>, minutes: number): Promise<number> {
    const before = await env.requests();
    for (let i = 0; i < minutes; i++) {
      env.clock.advance(MIN);
      await env.core.engine.runDue();
    }
    await env.core.engine.idle();
    return (await env.requests()) - before;
  }

  it('without an answer: paused, never polled against the real key; Demo mode on again resumes them', async () => {
    const env = await withExamples();
    expect(await pollFor(env, 30)).toBeGreaterThan(0); // Demo mode: the examples run
    await env.goLive();
    const searches =
      await env.value<{ is_example: boolean; paused: boolean; next_run_at: number | null }[]>(
        'searches.list',
      );
    expect(searches).toEqual([
      expect.objectContaining({ is_example: true, paused: true, next_run_at: null }),
    ]);
    const watches =
      await env.value<{ is_example: boolean; next_check_at: number | null }[]>('watchlist.list');
    expect(watches.every((w) => w.is_example && w.next_check_at === null)).toBe(true);
    expect(await pollFor(env, 120)).toBe(0);
    // ... also after a restart of the app.
    await env.restart();
    env.core.engine.start();
    expect(await pollFor(env, 60)).toBe(0);
    // The user's own watch is checked as usual: the engine is running.
    const mine = real.market.sorted.find((l) => l.subStatus === 'Open')!;
    await env.value('watchlist.add', { target: mine.lotNumber });
    expect(await pollFor(env, 24 * 60)).toBeGreaterThan(0);

    await env.value('settings.update', { demoMode: true });
    const again = await env.value<{ is_example: boolean; paused: boolean }[]>('searches.list');
    expect(again).toEqual([expect.objectContaining({ is_example: true, paused: false })]);
  });

  it('the user chose "remove them": they are gone', async () => {
    const env = await withExamples();
    await env.goLive();
    expect(await env.value('examples.remove')).toEqual({ searches: 1, watches: 3, calls: 0 });
    expect(await env.value('searches.list')).toEqual([]);
    expect(await env.value('watchlist.list')).toEqual([]);
    expect(await pollFor(env, 60)).toBe(0);
  });
});

describe('a spent monthly quota', () => {
  it('is said with the period end date; polling waits for it, across a restart; one alert for the period', async () => {
    const tiny = await startSandbox({
      seed: 23,
      lots: 500,
      startTime: START,
      speed: 0,
      ratePerSecond: 0,
      keys: [KEY],
      now: () => START,
      quota: { limit: 3, periodMs: 30 * 24 * HOUR },
    });
    try {
      const env = await setup();
      await goLive(env, { baseUrl: tiny.baseUrl!, key: KEY });
      const lot = tiny.market.sorted.find((l) => l.subStatus === 'Open')!;
      await env.value('watchlist.add', { target: lot.lotNumber });
      await env.value('vehicles.search', { params: {} });
      await env.value('vehicles.search', { params: {} });
      const spent = await env.call('vehicles.search', { params: {} });
      const end = START + 30 * 24 * HOUR;
      expect(spent).toMatchObject({ ok: false, error: { code: 'rate_limited', retryable: false } });
      if (!spent.ok)
        expect(spent.error.message).toBe(
          `Your plan's monthly requests are used up until ${format(end, 'd MMMM yyyy')}.`,
        );
      expect(await env.value('status.get')).toMatchObject({ paused_until: end, pause_kind: 'quota_spent' });

      await env.restart();
      env.core.engine.start();
      const before = await env.requests();
      for (let i = 0; i < 12; i++) {
        env.clock.advance(2 * HOUR);
        await env.core.engine.runDue();
      }
      await env.core.engine.idle();
      expect(await env.requests()).toBe(before);
      expect(await env.value('status.get')).toMatchObject({ paused_until: end, pause_kind: 'quota_spent' });
      const alerts = (
        await env.value<{ alerts: { kind: string; body: string }[] }>('alerts.list')
      ).alerts.filter((a) => a.kind === 'quota_low');
      expect(alerts).toHaveLength(1);
    } finally {
      await tiny.dispose();
    }
  });
});

describe('what a saved search schedule costs', () => {
  it('counts runs of the cron schedule times pages, against the daily allowance', async () => {
    const env = await setup({ live: true });
    expect(await env.value('searches.estimate', { schedule: '*/30 * * * *', max_pages: 5 })).toMatchObject({
      runs_per_week: 48 * 7,
      runs_per_day: 48,
      requests_per_day: 240,
      basis: 'default',
      allowed_per_day: 3,
      planned_per_day: 0,
      schedule_error: null,
    });
    await env.value('settings.update', { requestsPerDay: 1000 });
    expect(await env.value('searches.estimate', { schedule: '0 8 * * 1-5', max_pages: 2 })).toMatchObject({
      runs_per_week: 5,
      runs_per_day: 5 / 7,
      requests_per_day: 10 / 7,
      basis: 'setting',
      allowed_per_day: 1000,
    });
    // The plan's own share once the service has reported the quota: the budget's daily allowance, as on Usage.
    await env.value('settings.update', { requestsPerDay: null });
    await env.value('vehicles.search', { params: { make: 'FORD' } });
    const est = await env.value<{ basis: string; allowed_per_day: number }>('searches.estimate', {
      schedule: '0 * * * *',
      max_pages: 1,
    });
    const status = await env.value<{ budget: { allowedPerDay: number } }>('status.get');
    expect(est.basis).toBe('quota');
    expect(est.allowed_per_day).toBe(status.budget.allowedPerDay);
    expect(est.allowed_per_day).toBeGreaterThan(3);
    // Not a cron expression (yet: the user may be typing it): an answer that says why, with nothing counted.
    const typing = await env.value<{ runs_per_week: number; schedule_error: string | null }>(
      'searches.estimate',
      { schedule: 'every minute', max_pages: 1 },
    );
    expect(typing.runs_per_week).toBe(0);
    expect(typing.schedule_error).toMatch(/Not a valid cron expression/);
  });
});

describe('a ten-minute browse with a real key', () => {
  it('spends only what the user asked for: Search opened 3 times, 2 searches, 3 lots with history, related, shipping', async () => {
    const env = await setup({ live: true });
    const missing = 'https://cs.copart.com/v1/AUTH_svc.pdoc00001/none/missing_thb.jpg';
    const lots = real.market.sorted.filter((l) => l.subStatus === 'Open' && l.photos > 0).slice(0, 3);
    await env.value('vehicles.filters');
    env.clock.advance(MIN);
    await env.value('vehicles.search', { params: { make: 'FORD' } });
    await env.value('vehicles.filters');
    env.clock.advance(MIN);
    await env.value('vehicles.search', { params: { make: 'TOYOTA' } });
    for (const l of lots) {
      const d = await env.value<{ record: { media: { photos: string[] } }; summary: { lot_key: string } }>(
        'vehicles.get',
        { id: l.lotNumber },
      );
      await env.value('photos.get', { url: d.record.media.photos[0], lot_key: d.summary.lot_key });
      await env.call('photos.get', { url: missing }); // one broken photo, shown on every lot page
      await env.value('vehicles.history', { id: l.v.vin });
      await env.value('vehicles.related', { id: l.lotNumber });
      await env.value('shipping.get', { endpoint: 'vehicle', id: l.lotNumber, ports: ['NY'] });
      env.clock.advance(2 * MIN);
    }
    await env.value('vehicles.filters');
    await env.value('status.get'); // the Usage page asks nothing of the service
    await env.value('requests.list');
    expect(await env.requests('/vehicles/filters')).toBe(1);
    expect(await env.requests('/image-proxy')).toBe(4);
    // 1 filters + 2 searches + 3 x (lot, photo, history, related, shipping) + 1 broken photo = 19 (it was 23).
    expect(await env.requests()).toBe(19);
  });
});

describe('one-time spend notices', () => {
  it('are remembered in settings', async () => {
    const env = await setup();
    expect(await env.value('settings.get')).toMatchObject({ spendNoticesSeen: [] });
    await env.value('settings.update', { spendNoticesSeen: ['vehicles.search'] });
    await env.restart();
    expect(await env.value('settings.get')).toMatchObject({ spendNoticesSeen: ['vehicles.search'] });
  });
});
