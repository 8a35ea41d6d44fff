import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { DEMO_WORLD_LEAD_MS, demoLiveBids } from '../../../src/sandbox/demo';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { makeCore } from '../../helpers/buildCore';
import { driveTo, START } from '../watch/simulatedDay';

// Demo mode's first start as the shells make it (a world begun 30 minutes back, the market's next bids on the block
// offered for the examples), on fake time that drives the market and the watcher alike: the examples are three lots
// about to bid, each with a "bid reached" rule at its coming bid, and the first alert comes within 3 minutes.

type Alert = { kind: string; title: string; created_at: number };
const MIN = 60_000;

describe("Demo mode's first start", () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  const clock = new FakeClock(START);
  const ok = async <T>(m: string, i?: unknown): Promise<T> => {
    const r = await core.invoke(m, i);
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as T;
  };

  beforeAll(async () => {
    sb = createSandbox({
      startTime: START - DEMO_WORLD_LEAD_MS,
      speed: 1,
      now: () => clock.now() - DEMO_WORLD_LEAD_MS,
      ratePerSecond: 0,
    });
    await sb.start(0, '127.0.0.1');
    sb.advance(DEMO_WORLD_LEAD_MS);
    const made = makeCore({
      clock,
      notifier: { notify() {} },
      version: 'test',
      tzOffsetMinutes: () => 0,
      demoExamples: true,
      demoService: async () => ({
        baseUrl: sb.baseUrl!,
        apiKey: DEMO_KEY,
        ratePerSecond: 1e9,
        liveBids: () => demoLiveBids(sb),
      }),
    });
    core = made.core;
    cleanup = () => made.cleanup();
    await core.ready;
  }, 60_000);

  afterAll(async () => {
    await core.dispose();
    await sb.dispose();
    cleanup();
  });

  it('watches three lots about to bid on the block, each with a rule at its coming bid, and says when', async () => {
    expect(sb.marketNow()).toBe(clock.now());
    const watches =
      await ok<{ is_example: boolean; rules: { bid_above_usd: number | null } }[]>('watchlist.list');
    expect(watches.filter((w) => w.is_example)).toHaveLength(3);
    for (const w of watches) expect(w.rules.bid_above_usd).toBeGreaterThan(0);
    const intro = await ok<{ first_alert_expected_at: number | null; dismissed: boolean }>('examples.intro');
    expect(intro.dismissed).toBe(false);
    expect(intro.first_alert_expected_at! - START).toBeLessThanOrEqual(3 * MIN);
  });

  it('raises the first alert, a bid reaching an example rule, within 3 minutes', async () => {
    await core.engine.runDue();
    await driveTo({ core, sb }, clock, START + 3 * MIN, 0);
    const alerts = (await ok<{ alerts: Alert[] }>('alerts.list', { limit: 50 })).alerts;
    const first = [...alerts].sort((a, b) => a.created_at - b.created_at)[0];
    expect(first, 'an alert within 3 minutes').toBeDefined();
    expect(first!.created_at - START).toBeLessThanOrEqual(3 * MIN);
    expect(alerts.some((a) => /bid reached \$[\d,]+/.test(a.title))).toBe(true);
  });

  it('is dismissed for good', async () => {
    await ok('examples.dismissIntro');
    expect((await ok<{ dismissed: boolean }>('examples.intro')).dismissed).toBe(true);
  });
});
