import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../../src/shared/ipc/contract';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// The watchlist's bulk actions through core.invoke, on a real SQLite file, against the sandbox over HTTP.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
let sb: Sandbox;
sandboxPerFile(
  { seed: 5, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0, refresh: 'instant' },
  (started) => (sb = started),
);
const startCore = coresPerTest();
const makeCore = () => startCore({ sandbox: sb, clock: new FakeClock(START) });

/** Watches three open lots whose sales are days away (so a day passes with them still open); returns the list. */
async function watchThree(value: <T>(m: string, i?: unknown) => Promise<T>): Promise<WatchView[]> {
  const lots = sb.market.sorted.filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 4 * 24 * HOUR);
  for (const l of lots.slice(0, 3)) await value('watchlist.add', { target: l.lotNumber });
  return value<WatchView[]>('watchlist.list');
}

describe('watchlist.bulk', () => {
  it('pauses watches so the watcher skips them, and resumes them', async () => {
    const { core, clock, value } = await makeCore();
    const before = await watchThree(value);
    expect(before).toHaveLength(3);
    const [paused, active] = before as [WatchView, WatchView];
    expect(before.every((w) => !w.paused)).toBe(true);

    expect(await value('watchlist.bulk', { action: 'pause', ids: [paused.id, 999_999] })).toEqual({
      changed: 1,
      skipped: 1,
    });
    // A day later the watcher has checked the active watch again, never the paused one.
    clock.advance(24 * HOUR);
    await core.engine.runDue();
    await core.engine.idle();
    const after = await value<WatchView[]>('watchlist.list');
    const p = after.find((w) => w.id === paused.id)!;
    const a = after.find((w) => w.id === active.id)!;
    expect(p.paused).toBe(true);
    expect(p.last_checked_at).toBe(paused.last_checked_at);
    expect(a.paused).toBe(false);
    expect(a.last_checked_at).toBeGreaterThan(active.last_checked_at ?? 0);

    await value('watchlist.bulk', { action: 'resume', ids: [paused.id] });
    clock.advance(24 * HOUR);
    await core.engine.runDue();
    await core.engine.idle();
    const resumed = (await value<WatchView[]>('watchlist.list')).find((w) => w.id === paused.id)!;
    expect(resumed.paused).toBe(false);
    expect(resumed.last_checked_at).toBeGreaterThan(paused.last_checked_at ?? 0);
  });

  it("tags the selected watches' lots, each tag once beside the tags a lot had, and removes many at once", async () => {
    const { value, call } = await makeCore();
    const watches = await watchThree(value);
    const [first, second] = watches as [WatchView, WatchView];
    await value('lots.setNotes', { lot_key: first.lot_key, notes: 'Check the frame', tags: ['export'] });
    expect(
      await value('watchlist.bulk', {
        action: 'tag',
        ids: [first.id, second.id],
        tags: ['Export', 'auction day'],
      }),
    ).toEqual({ changed: 2, skipped: 0 });
    const tagged = await value<WatchView[]>('watchlist.list');
    expect(tagged.find((w) => w.id === first.id)?.desk).toMatchObject({
      notes: 'Check the frame',
      tags: ['export', 'auction day'],
    });
    expect(tagged.find((w) => w.id === second.id)?.desk?.tags).toEqual(['Export', 'auction day']);

    const refused = await call('watchlist.bulk', { action: 'tag', ids: [first.id], tags: [] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    const none = await call('watchlist.bulk', { action: 'remove', ids: [] });
    expect(none).toMatchObject({ ok: false, error: { code: 'bad_input' } });

    expect(await value('watchlist.bulk', { action: 'remove', ids: [first.id, second.id] })).toEqual({
      changed: 2,
      skipped: 0,
    });
    const left = await value<WatchView[]>('watchlist.list');
    expect(left.map((w) => w.id)).toEqual(watches.slice(2).map((w) => w.id));
  });
});
