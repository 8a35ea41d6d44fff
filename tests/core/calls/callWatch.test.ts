import { afterEach, describe, expect, it } from 'vitest';
import { coresPerTest, type TestCore } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';
import { CALL_FAILURES_BEFORE_PAUSE } from '../../../src/shared/callWatch';
import type { AlertView, CallWatchView } from '../../../src/shared/ipc/contract';
import { clientClockOf, FakeClock } from '../../helpers/fakeClock';
import { DEMO_KEY } from '../../helpers/sandbox';
import { startMovingChannel, type MovingChannel } from './movingChannel';

// Call watches against the sandbox over real HTTP, on a stepped fake clock: the engine is driven by runDue.
let sb: Sandbox;
sandboxPerFile({ lots: 60, testControl: true, refresh: 'instant' }, (s) => (sb = s));
const startCore = coresPerTest();

const VIDEOS = 'GET /api/v1/vp/channel/videos';
const HALF_HOUR = 30 * 60_000;

async function alertsOf(t: TestCore, id: number): Promise<AlertView[]> {
  const r = await t.value<{ alerts: AlertView[] }>('alerts.list', { limit: 500 });
  return r.alerts.filter((a) => a.source === `call:${id}`);
}

async function watchOf(t: TestCore, id: number): Promise<CallWatchView> {
  const all = await t.value<CallWatchView[]>('callWatches.list');
  return all.find((w) => w.id === id)!;
}

/** Steps the fake clock by `ms` and runs what is due (the scheduled call watches among it). */
async function step(t: TestCore, ms: number): Promise<void> {
  t.clock.advance(ms);
  await t.core.engine.runDue();
}

function requestsTo(t: TestCore, part: string): number {
  const row = t.db
    .prepare('SELECT count(*) AS n FROM request_log WHERE endpoint LIKE ?')
    .get(`%${part}%`) as { n: number };
  return row.n;
}

const channels: MovingChannel[] = [];
afterEach(async () => {
  for (const c of channels.splice(0)) await c.close();
});

/**
 * A core on a fake clock whose Demo service is a moving channel with `initial` videos (closed after the test), and,
 * with `perDay`, the buyer's own daily limit: a service without quota headers, so the limit is the allowance.
 */
async function onChannel(initial: number, perDay?: number): Promise<{ t: TestCore; channel: MovingChannel }> {
  const channel = await startMovingChannel(initial);
  channels.push(channel);
  const clock = new FakeClock();
  const t = await startCore({
    clock,
    demoService: async () => ({ baseUrl: channel.baseUrl, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    clientClock: clientClockOf(clock),
    autoStart: false,
    demoExamples: false,
    tzOffsetMinutes: () => 0,
  });
  if (perDay !== undefined) await t.value('settings.update', { requestsPerDay: perDay });
  return { t, channel };
}

describe('call watches', () => {
  it('runs on its schedule from the same budget: the first answer is the baseline, its requests are logged and planned', async () => {
    const t = await startCore({ sandbox: sb });
    const before = (await t.core.engine.plan()).projectedNext24h;
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Auction Garage',
      target: { endpoint: VIDEOS, query: { channel: 'auction-garage' } },
      schedule: '*/30 * * * *',
    });
    // One request a run, 48 runs a day, counted in the projected day as a saved search's runs are.
    expect(w.requests_per_day).toBe(48);
    expect((await t.core.engine.plan()).projectedNext24h - before).toBe(48);
    await t.core.engine.runDue();
    const first = await watchOf(t, w.id);
    expect(first.last_status).toBe(200);
    expect(first.items).toBeGreaterThan(0);
    expect(first.list_path).not.toBeNull();
    expect(requestsTo(t, 'channel/videos')).toBe(1);
    expect(await alertsOf(t, w.id)).toEqual([]);
    // Nothing due until the next half hour: no request.
    await t.core.engine.runDue();
    expect(requestsTo(t, 'channel/videos')).toBe(1);
    await step(t, HALF_HOUR);
    expect(requestsTo(t, 'channel/videos')).toBe(2);
    const answer = await t.value<{ json: { data: { items: unknown[] } } }>('callWatches.answer', {
      id: w.id,
    });
    expect(answer.json.data.items.length).toBe(first.items);
    // A bad schedule is refused as a saved search's is.
    const bad = await t.call('callWatches.create', {
      name: 'x',
      target: { endpoint: VIDEOS },
      schedule: 'every now and then',
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.fields?.['schedule']).toBeDefined();
  });

  it('an answer that is not JSON gives one "changed shape" alert per run of bad answers and keeps the last good one', async () => {
    const t = await startCore({ sandbox: sb });
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Garage shorts',
      target: { endpoint: 'GET /api/v1/vp/channel/shorts', query: { channel: 'garage' } },
      schedule: '*/30 * * * *',
    });
    await t.core.engine.runDue();
    const good = await t.value<{ json: unknown }>('callWatches.answer', { id: w.id });
    sb.faults.set({ queue: ['non_json', 'non_json', 'non_json'], pathContains: '/channel/shorts' });
    try {
      for (let i = 0; i < 3; i++) await step(t, HALF_HOUR);
    } finally {
      sb.faults.set({});
    }
    let alerts = await alertsOf(t, w.id);
    expect(alerts.map((a) => a.kind)).toEqual(['call_shape_changed']);
    expect((await t.value<{ json: unknown }>('callWatches.answer', { id: w.id })).json).toEqual(good.json);
    const view = await watchOf(t, w.id);
    expect(view.paused).toBe(false);
    expect(view.consecutive_failures).toBe(0);
    // A good answer between: the next bad one alerts again.
    await step(t, HALF_HOUR);
    sb.faults.set({ queue: ['non_json'], pathContains: '/channel/shorts' });
    try {
      await step(t, HALF_HOUR);
    } finally {
      sb.faults.set({});
    }
    alerts = await alertsOf(t, w.id);
    expect(alerts.map((a) => a.kind)).toEqual(['call_shape_changed', 'call_shape_changed']);
  });

  it(`pauses itself after ${CALL_FAILURES_BEFORE_PAUSE} 4xx answers in a row, with one call_failing alert`, async () => {
    const t = await startCore({ sandbox: sb });
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'A lot that does not exist',
      target: { endpoint: 'GET /vehicles/{slugVin}', path: { slugVin: '99999999' } },
      schedule: '*/30 * * * *',
    });
    await t.core.engine.runDue();
    for (let i = 1; i < CALL_FAILURES_BEFORE_PAUSE + 2; i++) await step(t, HALF_HOUR);
    const view = await watchOf(t, w.id);
    expect(view.paused).toBe(true);
    expect(view.paused_reason).toBe('failing');
    expect(view.consecutive_failures).toBe(CALL_FAILURES_BEFORE_PAUSE);
    expect(view.last_status).toBe(404);
    expect(view.next_run_at).toBeNull();
    expect(view.requests_per_day).toBeGreaterThan(0);
    // Paused: no request after the third.
    expect(requestsTo(t, '/vehicles/')).toBe(CALL_FAILURES_BEFORE_PAUSE);
    expect((await alertsOf(t, w.id)).map((a) => a.kind)).toEqual(['call_failing']);
    // Resuming clears the count the watch paused itself on.
    const resumed = await t.value<CallWatchView>('callWatches.setPaused', { id: w.id, paused: false });
    expect(resumed).toMatchObject({ paused: false, paused_reason: null, consecutive_failures: 0 });
  });

  it("a video-platform call answered 404 says so in the call's words, not a vehicle's", async () => {
    const { t } = await onChannel(1, 100);
    // The stand-in channel answers 404 for every path but its videos and playability.
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Garage podcasts',
      target: { endpoint: 'GET /api/v1/vp/channel/podcasts', query: { channel_id: 'UCnone' } },
      schedule: '0 * * * *',
    });
    await t.core.engine.runDue();
    for (let i = 1; i < CALL_FAILURES_BEFORE_PAUSE; i++) await step(t, 60 * 60_000);
    const view = await watchOf(t, w.id);
    expect(view).toMatchObject({ paused: true, paused_reason: 'failing', last_status: 404 });
    expect(view.last_error).toBe('The service knows no such video, channel or comment id.');
    expect(view.last_error).not.toMatch(/VIN|lot number/);
    const [failing] = await alertsOf(t, w.id);
    expect(failing!.body).toBe(
      'The last 3 calls were refused (HTTP 404): The service knows no such video, channel or comment id. ' +
        'Check its parameters, then resume it.',
    );
  });

  it('alerts each new video of a channel exactly once over simulated days, across a restart, with its link', async () => {
    // A service without quota headers: the buyer's own daily limit is the allowance (24 runs a day fit in 100).
    const { t, channel } = await onChannel(12, 100);
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Auction Garage',
      target: { endpoint: VIDEOS, query: { channel: 'auction-garage' } },
      schedule: '0 * * * *',
      // A day's worth of new videos may all notify: the cap is the lots' rule, tested with them.
      rules: { cap_per_lot_per_hour: 60 },
    });
    await t.core.engine.runDue(); // the baseline: the 12 videos there already never alert
    const fresh: string[] = [];
    // Three simulated days, a few videos every few hours; a restart (a new core on the same file) half-way.
    for (let hour = 1; hour <= 72; hour++) {
      if (hour % 5 === 0) fresh.push(...channel.publish(1 + (hour % 3)));
      if (hour === 36) {
        await t.restart();
        await t.core.engine.refresh(); // what a started engine does first: read the schedules
      }
      await step(t, 60 * 60_000);
    }
    const alerts = (await alertsOf(t, w.id)).filter((a) => a.kind === 'call_new_item');
    const urls = alerts.map((a) => a.url);
    // Every new video exactly once, none of the baseline's, each with its link.
    expect(urls.length).toBe(fresh.length);
    expect(new Set(urls)).toEqual(new Set(fresh.map((id) => `https://www.youtube.com/watch?v=${id}`)));
    expect(alerts.every((a) => a.title.includes('copart haul #'))).toBe(true);
    // One request a run, from the same request log as every other request.
    expect(requestsTo(t, 'channel/videos')).toBe(73);
  });

  it('a 422 marks the parameters it names, or every typed parameter when it names none', async () => {
    const { t, channel } = await onChannel(3);
    const named = await t.value<CallWatchView>('callWatches.create', {
      name: 'Sorted',
      target: { endpoint: VIDEOS, query: { channel: 'garage', sort: 'newest' } },
    });
    const unnamed = await t.value<CallWatchView>('callWatches.create', {
      name: 'Bogus',
      target: { endpoint: VIDEOS, query: { channel: 'garage', bogus: '1' } },
    });
    await t.value('callWatches.runNow', { id: named.id });
    const out = await t.value<{ status: string; error: { code: string } }>('callWatches.runNow', {
      id: unnamed.id,
    });
    expect(out.status).toBe('error');
    expect(await watchOf(t, named.id)).toMatchObject({
      last_status: 422,
      consecutive_failures: 1,
      refused_params: ['sort'],
      paused: false,
    });
    expect((await watchOf(t, unnamed.id)).refused_params.sort()).toEqual(['bogus', 'channel']);
    // A name the client will not send is refused before sending: marked, no request spent, no failure counted.
    const unsent = await t.value<CallWatchView>('callWatches.create', {
      name: 'Unsendable',
      target: { endpoint: VIDEOS, query: { 'bad name!': 'x' } },
    });
    const before = channel.requests;
    const r = await t.value<{ status: string; requests: number }>('callWatches.runNow', { id: unsent.id });
    expect(r).toMatchObject({ status: 'error', requests: 0 });
    expect(channel.requests).toBe(before);
    expect(await watchOf(t, unsent.id)).toMatchObject({
      refused_params: ['bad name!'],
      consecutive_failures: 0,
    });
  });

  it('a watched value (a video turning unplayable) alerts once when it changes, not while it stays', async () => {
    const { t, channel } = await onChannel(1, 100);
    const w = await t.value<CallWatchView>('callWatches.create', {
      name: 'Haul #1 playable',
      target: { endpoint: 'GET /api/v1/vp/vp/video/playability', query: { id: 'vid00000001' } },
      config: { fields: [{ path: ['data', 'playable'], label: 'playable' }] },
      schedule: '0 * * * *',
    });
    await t.core.engine.runDue();
    await step(t, 60 * 60_000);
    channel.setPlayable(false);
    for (let i = 0; i < 3; i++) await step(t, 60 * 60_000);
    const alerts = await alertsOf(t, w.id);
    expect(alerts.map((a) => a.kind)).toEqual(['call_value_changed']);
    expect(alerts[0]!.title).toContain('playable');
  });
});
