import { afterEach, describe, expect, it } from 'vitest';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';
import { publishedAfter } from './feed';
import { DEMO_CALL_EXAMPLE, DEMO_CHANNEL_ID, GONE_PREFIX } from '../../../src/sandbox/index';
import type { AlertView, CallWatchView } from '../../../src/shared/ipc/contract';

// Call watches on the sandbox's moving video endpoints over real HTTP. The sandbox's real-time source is the core's
// fake clock at speed 1, so market time and the watcher's time are one clock the test steps.

const HOUR = 60 * 60_000;
const startCore = coresPerTest();
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.dispose();
  sb = undefined;
});

async function setUp() {
  const clock = new FakeClock();
  sb = await startSandbox({ lots: 40, now: () => clock.now(), startTime: clock.now(), speed: 1 });
  const t = await startCore({ sandbox: sb, clock });
  // The Demo sandbox's quota is generous; the buyer's own limit keeps the pace test-sized and known.
  await t.value('settings.update', { requestsPerDay: 200 });
  return t;
}

/** The watch's alerts, oldest first. */
async function callAlerts(t: Awaited<ReturnType<typeof setUp>>, id: number): Promise<AlertView[]> {
  const { alerts } = await t.value<{ alerts: AlertView[] }>('alerts.list', { limit: 500 });
  return alerts
    .filter((a) => a.source === `call:${id}`)
    .sort((a, b) => a.created_at - b.created_at || a.id - b.id);
}

/**
 * A watch on the Demo channel's videos, run every 30 minutes with room for every upload in its alerts, and its
 * baseline read.
 */
async function watchDemoChannel(t: Awaited<ReturnType<typeof setUp>>): Promise<CallWatchView> {
  const w = await t.value<CallWatchView>('callWatches.create', {
    ...DEMO_CALL_EXAMPLE,
    schedule: '*/30 * * * *',
    rules: { cap_per_lot_per_hour: 60 },
  });
  await t.core.engine.runDue(); // the baseline
  return w;
}

describe('call watches on the sandbox video platform', () => {
  it("alerts each of the Demo channel's new videos exactly once over two simulated days and a restart", async () => {
    const t = await setUp();
    const w = await watchDemoChannel(t);
    const baselineAt = t.clock.now();
    for (let step = 1; step <= 96; step++) {
      if (step === 48) {
        await t.restart();
        await t.core.engine.refresh(); // what a started engine does first: read the schedules
      }
      t.clock.advance(HOUR / 2);
      await t.core.engine.runDue();
    }
    // The truth: every video the channel published after the baseline, read page by page (newest first).
    const published = await publishedAfter(sb!.url!, DEMO_CHANNEL_ID, baselineAt);
    const fresh = (await callAlerts(t, w.id)).filter((a) => a.kind === 'call_new_item');
    const urls = fresh.map((a) => a.url);
    // Two simulated days of uploads about every 40 minutes: each alerted exactly once, none missed.
    expect(published.length).toBeGreaterThan(48);
    expect(new Set(urls).size).toBe(urls.length);
    expect([...urls].sort()).toEqual([...published].sort());
    const view = (await t.value<CallWatchView[]>('callWatches.list')).find((x) => x.id === w.id)!;
    expect(view).toMatchObject({ last_status: 200, consecutive_failures: 0, paused: false });
  });

  it('a video turning private alerts once on its watched playability', async () => {
    const t = await setUp();
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Haul playable',
      target: {
        endpoint: 'GET /api/v1/vp/vp/video/playability',
        query: { video_id: `${GONE_PREFIX}haul212` },
      },
      config: { fields: [{ path: ['data', 'playable'], label: 'playable' }] },
      schedule: '*/15 * * * *',
    });
    await t.core.engine.runDue();
    for (let i = 0; i < 12; i++) {
      t.clock.advance(HOUR / 4);
      await t.core.engine.runDue();
    }
    expect((await callAlerts(t, w.id)).map((a) => a.kind)).toEqual(['call_value_changed']);
  });

  it('a feed that answers without its list gives one "changed shape" alert, keeps the last good answer, and the videos of the gap still alert', async () => {
    const t = await setUp();
    const w = await watchDemoChannel(t);
    t.clock.advance(HOUR / 2);
    await t.core.engine.runDue();
    const lastGoodAt = t.clock.now();
    const good = await t.value<{ json: unknown }>('callWatches.answer', { id: w.id });
    const before = await callAlerts(t, w.id);
    // Two runs answer a body with no list at all (the list found automatically, data.items, is gone).
    sb!.faults.set({ queue: ['reshaped', 'reshaped'], pathContains: '/channel/videos' });
    for (let i = 0; i < 2; i++) {
      t.clock.advance(HOUR / 2);
      await t.core.engine.runDue();
    }
    sb!.faults.set({});
    const during = (await callAlerts(t, w.id)).slice(before.length);
    expect(during.map((a) => a.kind)).toEqual(['call_shape_changed']);
    expect(during[0]!.body).toContain('The list data.items is gone from the answer.');
    expect((await t.value<{ json: unknown }>('callWatches.answer', { id: w.id })).json).toEqual(good.json);
    // The list is back: what the channel published during the gap alerts once each, compared with the last good answer.
    t.clock.advance(HOUR / 2);
    await t.core.engine.runDue();
    const after = (await callAlerts(t, w.id)).slice(before.length + 1);
    const gap = await publishedAfter(sb!.url!, DEMO_CHANNEL_ID, lastGoodAt);
    expect(gap.length).toBeGreaterThan(0);
    expect(after.every((a) => a.kind === 'call_new_item')).toBe(true);
    expect(after.map((a) => a.url).sort()).toEqual([...gap].sort());
  });

  it('a call watch deleted while its request is out ends its run quietly: no answer, no alert, no failed tick', async () => {
    const t = await setUp();
    const w = await t.value<CallWatchView>('callWatches.create', {
      ...DEMO_CALL_EXAMPLE,
      schedule: '0 * * * *',
    });
    // The sandbox holds its answer while the watch is deleted: the delete waits for the request to arrive, not on time.
    sb!.faults.set({ latencyMs: 500, pathContains: '/channel/videos' });
    const arrived = new Promise<void>((r) => sb!.app.server.once('request', () => r()));
    const running = t.value<{ status: string }>('callWatches.runNow', { id: w.id });
    await arrived;
    await t.value('callWatches.remove', { id: w.id });
    expect((await running).status).toBe('skipped');
    sb!.faults.set({});
    const rows = t.db.prepare('SELECT count(*) AS n FROM call_answers').get() as { n: number };
    expect(rows.n).toBe(0);
    expect(await callAlerts(t, w.id)).toEqual([]);
  });

  it("Demo mode's first start makes the example call watch with the other examples; removing them removes it", async () => {
    const clock = new FakeClock();
    sb = await startSandbox({ lots: 40, now: () => clock.now(), startTime: clock.now(), speed: 1 });
    const url = sb.baseUrl!;
    const t = await startCore({
      sandbox: sb,
      clock,
      demoExamples: true,
      autoStart: true,
      demoService: async () => ({
        baseUrl: url,
        apiKey: 'lotwatch-demo-key',
        ratePerSecond: 1e9,
        callExample: DEMO_CALL_EXAMPLE,
      }),
    });
    const listed = await t.value<CallWatchView[]>('callWatches.list');
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      name: DEMO_CALL_EXAMPLE.name,
      is_example: true,
      target: DEMO_CALL_EXAMPLE.target,
      waits_for_demo: false,
    });
    expect(listed[0]!.next_run_at).not.toBeNull();

    // Demo mode off: the example waits for Demo mode, and the list says so (no next run, nothing a day), where it
    // had said "Running" with a next run.
    await t.value('settings.update', { demoMode: false });
    const off = await t.value<CallWatchView[]>('callWatches.list');
    expect(off[0]).toMatchObject({ waits_for_demo: true, next_run_at: null, requests_per_day: 0 });
    await t.value('settings.update', { demoMode: true });
    expect((await t.value<CallWatchView[]>('callWatches.list'))[0]).toMatchObject({ waits_for_demo: false });
    await t.value('examples.remove');
    expect(await t.value<CallWatchView[]>('callWatches.list')).toEqual([]);
  });
});
