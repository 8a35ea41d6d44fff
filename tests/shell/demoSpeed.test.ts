import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log';
import { startHeadless, type HeadlessOptions, type RunningHeadless } from '../../src/headless/start';
import type { Sandbox } from '../../src/sandbox';
import { makeCore } from '../helpers/core';
import { keyedService } from '../helpers/sandbox';
import { shellFolders } from './shellFolders';

// --demo-speed drives the Demo market only (never the real service), and a restart resumes the market's time.

const KEY = 'sk_live_paid_plan_key_0001';
const MIN = 60_000;

const { cleanups, folder, renderer } = shellFolders();

/** A local sandbox standing in for the real service, with the paid key; `keyed()` counts requests carrying it. */
async function realService(): Promise<{ sb: Sandbox; keyed(): number }> {
  // Every request the server receives, whatever the sandbox answers.
  const { sb, keys: seen } = await keyedService(KEY, 300);
  cleanups.push(() => sb.dispose());
  return { sb, keyed: () => seen.filter((k) => k === KEY).length };
}

/** Starts the headless shell; disposed after the test unless the test disposes it. */
async function start(
  opts: Omit<HeadlessOptions, 'rendererDir' | 'version' | 'log'> & { rendererDir?: string },
): Promise<RunningHeadless> {
  const h = await startHeadless({
    rendererDir: renderer(),
    version: '0.0.0-test',
    log: silentLogger,
    ...opts,
  });
  let disposed = false;
  const dispose = h.dispose.bind(h);
  h.dispose = async () => {
    if (disposed) return;
    disposed = true;
    await dispose();
  };
  cleanups.push(() => h.dispose());
  return h;
}

/** A data folder that uses the "real" service with the paid key (Demo mode off), as a buyer's would. */
async function liveFolder(baseUrl: string): Promise<string> {
  const dataDir = folder();
  const h = await start({ dataDir });
  await h.core.ready;
  await h.core.call('settings.update', { serviceUrl: baseUrl });
  await h.core.call('key.set', { key: KEY });
  await h.core.call('settings.update', { demoMode: false });
  expect(await h.core.call('key.test', undefined)).toMatchObject({ ok: true });
  await h.dispose();
  return dataDir;
}

describe('--demo-speed never drives the real service', () => {
  it('refuses to start on a data folder in live mode, and no request reaches the service', async () => {
    const real = await realService();
    const dataDir = await liveFolder(real.sb.baseUrl!);
    const before = real.keyed();
    expect(before).toBeGreaterThan(0);

    const outcome = await start({ dataDir, demoSpeed: 600 }).then(
      (h) => h,
      (e: unknown) => e,
    );
    expect(outcome).toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(
        /^--demo-speed only applies to Demo mode.*Start without --demo-speed, or use another --data-dir/,
      ),
    });
    expect((outcome as Error).message).toContain(dataDir);
    expect(real.keyed()).toBe(before);

    // The refusal left the folder free and unchanged: a normal start works, still in live mode.
    const h = await start({ dataDir });
    expect(await h.core.call('app.info', undefined)).toMatchObject({ mode: 'live', clock: { speed: 1 } });
  }, 30_000);

  it('refuses to turn Demo mode off while accelerated; the key is kept for later and never sent', async () => {
    const real = await realService();
    const h = await start({ dataDir: folder(), demoSpeed: 600 });
    await h.core.ready;
    await h.core.call('settings.update', { serviceUrl: real.sb.baseUrl! });
    await h.core.call('key.set', { key: KEY });
    const refused = h.core.call('settings.update', { demoMode: false, theme: 'dark' });
    await expect(refused).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(
        /^Demo mode stays on: .*600 times faster.*restart Lotwatch without --demo-speed/,
      ),
    });
    expect(await h.core.call('settings.get', undefined)).toMatchObject({ demoMode: true, theme: 'system' });
    expect(await h.core.call('status.get', undefined)).toMatchObject({ mode: 'demo' });
    await h.core.engine.runDue();
    await h.core.engine.idle();
    expect(real.keyed()).toBe(0);
  }, 30_000);

  it('a core on an accelerated clock builds no client for the real service, even if the folder is in live mode', async () => {
    const real = await realService();
    const dataDir = await liveFolder(real.sb.baseUrl!);
    const before = real.keyed();
    const { core } = makeCore({
      dir: dataDir,
      clock: {
        now: () => Date.now(),
        speed: 600,
        setTimeout: (fn: () => void, ms: number) => {
          const t = setTimeout(fn, ms / 600);
          return () => clearTimeout(t);
        },
      },
      autoStart: false,
    });
    cleanups.push(() => core.dispose());
    await core.ready;
    expect(await core.call('status.get', undefined)).toMatchObject({ mode: 'live', running: false });
    expect(await core.call('key.test', undefined)).toEqual({ ok: false, usage: null });
    await core.engine.runDue();
    await core.engine.idle();
    expect(real.keyed()).toBe(before);
  }, 30_000);
});

describe('an accelerated Demo across restarts', () => {
  it('resumes the market where the last run left it: the clock never goes back, no sale or alert comes twice', async () => {
    const dataDir = folder();
    const rendererDir = renderer();
    // The wall clock the fast market runs on: moved by hand, so the test needs no sleeps.
    let wall = Math.floor(Date.now() / MIN) * MIN;
    let reached = 0;
    const runs = 4;
    for (let run = 0; run < runs; run++) {
      const h = await start({ dataDir, rendererDir, demoSpeed: 600, wallNow: () => wall });
      await h.core.ready;
      const resumedAt = (await h.core.call('app.info', undefined)).clock.now;
      expect(resumedAt, `run ${run} starts where the last one ended`).toBeGreaterThanOrEqual(reached);
      if (run === 0) {
        // Besides Demo mode's examples, watch a few lots that sell within the first run's hours.
        const now = resumedAt;
        const page = await h.core.call('vehicles.search', { params: {} });
        const soon = page.lots.filter(
          (l) => l.auction_at !== null && l.auction_at > now + 10 * MIN && l.auction_at < now + 8 * 60 * MIN,
        );
        for (const l of soon.slice(0, 4))
          await h.core.call('watchlist.add', { target: l.lot_number, label: '', rules: undefined });
      }
      // A minute of wall time: ten hours of market time.
      wall += MIN;
      for (let i = 0; i < 3; i++) {
        await h.core.engine.runDue();
        await h.core.engine.idle();
      }
      reached = (await h.core.call('app.info', undefined)).clock.now;
      expect(reached).toBeGreaterThan(resumedAt);
      await h.dispose();
      // The restart itself takes some wall time.
      wall += 5_000;
    }

    const h = await start({ dataDir, rendererDir, demoSpeed: 600, wallNow: () => wall });
    await h.core.ready;
    expect((await h.core.call('app.info', undefined)).clock.now).toBeGreaterThanOrEqual(reached);
    const { alerts } = await h.core.call('alerts.list', { limit: 500 });
    const sales = alerts.filter((a) => a.kind === 'sale_result');
    expect(sales.length, 'the watched lots sold while watched').toBeGreaterThan(0);
    // Each lot sells once: a replayed market would sell it again after the restart.
    const perLot = new Map<string, number>();
    for (const a of sales) perLot.set(a.lot_key ?? '', (perLot.get(a.lot_key ?? '') ?? 0) + 1);
    expect([...perLot].filter(([, n]) => n > 1)).toEqual([]);
    // No alert is raised twice with the same words for the same lot.
    const seen = alerts.map((a) => `${a.kind} ${a.lot_key} ${a.title}`);
    expect(seen.filter((s, i) => seen.indexOf(s) !== i)).toEqual([]);
  }, 120_000);
});
