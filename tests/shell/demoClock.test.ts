import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log';
import { startHeadless, type HeadlessOptions, type RunningHeadless } from '../../src/headless/start';
import { shellFolders } from './shellFolders';

// --demo-clock stepped (test-only): the Demo market and the watcher stand still until a test steps them through the
// control routes, and a step runs the watcher's work that comes due; refused outside Demo mode and without the routes.

const MIN = 60_000;

const { cleanups, folder, renderer } = shellFolders();

/** Starts the headless shell on `dataDir` (a new folder by default); disposed after the test. */
async function start(opts: Partial<HeadlessOptions> = {}): Promise<RunningHeadless> {
  const h = await startHeadless({
    dataDir: folder(),
    rendererDir: renderer(),
    version: '0.0.0-test',
    log: silentLogger,
    ...opts,
  });
  cleanups.push(() => h.dispose());
  return h;
}

const post = async (
  url: string,
  route: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> => {
  const res = await fetch(`${url}/__sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('a stepped Demo market', () => {
  it('stands still until stepped; a step runs the watcher, which sees a lot sold on demand at its price', async () => {
    const wall = Date.UTC(2026, 10, 26, 9, 0, 0);
    const h = await start({ demoControl: true, demoClock: 'stepped', wallNow: () => wall });
    await h.core.ready;
    const url = await h.demoUrl();
    const t0 = (await h.core.call('app.info', undefined)).clock.now;
    expect(t0).toBe(wall);

    // The open lot of the first page (soonest sales first) whose sale is furthest away, watched: the first check
    // stores it.
    const page = await h.core.call('vehicles.search', { params: {} });
    const lot = page.lots.filter((l) => l.auction_at !== null && l.auction_at > t0 + 5 * MIN).at(-1);
    if (!lot) throw new Error('no lot 5 minutes or more from its sale on the first page');
    await h.core.call('watchlist.add', { target: lot.lot_number, label: '', rules: undefined });
    await h.core.engine.idle();
    expect((await h.core.call('app.info', undefined)).clock.now, 'nothing moves on its own').toBe(t0);

    const price = (lot.current_bid_usd ?? 0) + 2_500;
    expect((await post(url, 'sell', { lot_number: lot.lot_number, price })).status).toBe(200);
    const step = await post(url, 'clock', { advance_ms: 2 * 60 * MIN });
    expect(step.status).toBe(200);
    expect((step.json['data'] as { market_now_ms: number }).market_now_ms).toBe(t0 + 2 * 60 * MIN);
    expect((await h.core.call('app.info', undefined)).clock.now).toBe(t0 + 2 * 60 * MIN);

    // The step answered after the watcher's check at its planned market time: the sale is in the inbox already.
    const { alerts } = await h.core.call('alerts.list', { limit: 100 });
    const sale = alerts.filter((a) => a.kind === 'sale_result' && a.lot_key?.endsWith(`:${lot.lot_number}`));
    expect(sale).toHaveLength(1);
    expect(sale[0]?.title).toContain(`Sold for $${price.toLocaleString('en-US')}`);
    expect(sale[0]?.created_at).toBeGreaterThan(t0);
    expect(sale[0]?.created_at).toBeLessThanOrEqual(t0 + 2 * 60 * MIN);
  }, 60_000);

  it('is refused without the control routes, with --demo-speed, and outside Demo mode (nothing started)', async () => {
    await expect(start({ demoClock: 'stepped' })).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/needs --demo-control/),
    });
    await expect(start({ demoClock: 'stepped', demoControl: true, demoSpeed: 60 })).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/exclude each other/),
    });

    const dataDir = folder();
    const live = await start({ dataDir });
    await live.core.ready;
    await live.core.call('settings.update', { demoMode: false });
    await live.dispose();
    await expect(start({ dataDir, demoClock: 'stepped', demoControl: true })).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/only applies to Demo mode/),
    });
    // Nothing was started: the folder opens again.
    await (await start({ dataDir })).dispose();
  }, 60_000);

  it('refuses a step once Demo mode is turned off: the watcher no longer runs on the Demo market', async () => {
    const h = await start({ demoControl: true, demoClock: 'stepped' });
    await h.core.ready;
    const url = await h.demoUrl();
    const t0 = (await h.core.call('app.info', undefined)).clock.now;
    await h.core.call('settings.update', { demoMode: false });
    const refused = await post(url, 'clock', { advance_ms: MIN });
    expect(refused.status).toBe(409);
    expect(refused.json['message']).toMatch(/Demo mode is off/);
    expect((await h.core.call('app.info', undefined)).clock.now).toBe(t0);
  }, 60_000);
});
