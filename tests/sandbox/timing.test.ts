import { describe, expect, it } from 'vitest';
import { createSandbox, sandboxSeeds } from '../../src/sandbox/index';
import { Market } from '../../src/sandbox/market';
import { Rng } from '../../src/sandbox/rng';
import { DEFAULT_TIMING, drawDuration, resolveTiming } from '../../src/sandbox/timing';
import { START } from './harness';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};

describe('time distributions', () => {
  it('draws durations reproducibly per seed, within their bounds, spread around their median', () => {
    const d = DEFAULT_TIMING.live;
    const draw = (seed: number): number[] => {
      const rng = new Rng(seed);
      return Array.from({ length: 4000 }, () => drawDuration(rng, d));
    };
    const a = draw(1);
    expect(draw(1)).toEqual(a);
    expect(draw(2)).not.toEqual(a);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(d.minMs);
    expect(Math.max(...a)).toBeLessThanOrEqual(d.maxMs);
    expect(a.every((x) => x % SEC === 0)).toBe(true);
    expect(Math.abs(quantile(a, 0.5) - d.medianMs)).toBeLessThan(10 * SEC);
    // A distribution, not a constant or a narrow window: a tenth below 1 min 15 s, a tenth above 3 min 15 s.
    expect(quantile(a, 0.1)).toBeLessThan(75 * SEC);
    expect(quantile(a, 0.9)).toBeGreaterThan(195 * SEC);
  });

  it("a market's live phases, start delays, relists and reschedules follow the distributions", () => {
    const m = new Market({ seed: 31, lots: 4000, startTime: START });
    m.advanceTo(START + 9 * DAY);
    const starts: number[] = [];
    const lives: number[] = [];
    const ends = new Map<string, number>();
    for (const e of m.events) {
      if (e.kind !== 'state') continue;
      const lot = m.findLot(e.lot_number)!;
      if (e.data['lot_sub_status'] === 'Live') starts.push(e.t - lot.auctionAt);
      else {
        ends.set(e.lot_number, e.t);
        const tl = m.timeline(e.lot_number)!;
        lives.push(tl.endAt - tl.liveAt);
      }
    }
    const t = DEFAULT_TIMING;
    expect(starts.length).toBeGreaterThan(1000);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...starts)).toBeLessThanOrEqual(t.startDelay.maxMs);
    expect(quantile(starts, 0.5)).toBeGreaterThan(2 * MIN);
    expect(quantile(starts, 0.5)).toBeLessThan(7 * MIN);
    expect(quantile(starts, 0.95)).toBeGreaterThan(12 * MIN);
    expect(Math.min(...lives)).toBeGreaterThanOrEqual(t.live.minMs);
    expect(Math.max(...lives)).toBeLessThanOrEqual(t.live.maxMs);
    // Relists: from an hour to days after the end, spread (not within a fixed 1-12 h window).
    const relists = m.events.filter(
      (e) => e.kind === 'relist' && ends.has(e.data['previous_lot_number'] as string),
    );
    const gaps = relists.map((e) => e.t - ends.get(e.data['previous_lot_number'] as string)!);
    expect(gaps.length).toBeGreaterThan(50);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(t.relistDelay.minMs);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(t.relistDelay.maxMs);
    expect(gaps.filter((g) => g > 13 * HOUR).length / gaps.length).toBeGreaterThan(0.3);
    // Some relists follow a sale on approval.
    expect(
      relists.some((e) => m.findLot(e.data['previous_lot_number'] as string)!.state === 'approval'),
    ).toBe(true);
    // Reschedules move a sale by anything from half an hour to two weeks.
    const moves = m.events
      .filter((e) => e.kind === 'reschedule')
      .map((e) => Date.parse(e.data['to'] as string) - Date.parse(e.data['from'] as string));
    expect(moves.length).toBeGreaterThan(10);
    expect(Math.min(...moves)).toBeGreaterThanOrEqual(t.rescheduleShift.minMs - MIN);
    expect(Math.max(...moves)).toBeLessThanOrEqual(t.rescheduleShift.maxMs + MIN);
    expect(moves.some((x) => x % DAY !== 0)).toBe(true);
  });

  it('takes other distributions as an option and refuses malformed ones', () => {
    const fixed = { medianMs: 90 * SEC, sigma: 0, minMs: 90 * SEC, maxMs: 90 * SEC };
    const m = new Market({
      seed: 4,
      lots: 600,
      startTime: START,
      timing: { live: fixed, startDelay: { medianMs: 1, sigma: 0, minMs: 0, maxMs: 0 } },
    });
    m.advanceTo(START + 2 * DAY);
    const ended = m.events.filter((e) => e.kind === 'state' && e.data['lot_sub_status'] === 'Ended');
    expect(ended.length).toBeGreaterThan(20);
    for (const e of ended) {
      const tl = m.timeline(e.lot_number)!;
      expect(tl.endAt - tl.liveAt).toBe(90 * SEC);
      expect(tl.liveAt).toBe(m.findLot(e.lot_number)!.auctionAt);
    }
    expect(() => resolveTiming({ live: { medianMs: MIN, sigma: 1, minMs: 2 * MIN, maxMs: MIN } })).toThrow(
      RangeError,
    );
    expect(() => resolveTiming({ rescheduleChance: 2 })).toThrow(RangeError);
  });
});

describe('several seeds', () => {
  it('sandboxSeeds gives distinct, stable seeds starting at the default', () => {
    const s = sandboxSeeds(5);
    expect(s).toHaveLength(5);
    expect(s[0]).toBe(42);
    expect(new Set(s).size).toBe(5);
    expect(sandboxSeeds(5)).toEqual(s);
    expect(sandboxSeeds(3, 7)[0]).toBe(7);
    expect(() => sandboxSeeds(0)).toThrow(RangeError);
  });

  it('sandboxes of different seeds run side by side in one process, each reproducible', () => {
    const [a, b] = sandboxSeeds(2).map((seed) =>
      createSandbox({ seed, lots: 600, startTime: START, speed: 0 }),
    );
    const again = createSandbox({ seed: sandboxSeeds(2)[1], lots: 600, startTime: START, speed: 0 });
    for (const sb of [a!, b!, again]) sb.advance(2 * DAY);
    expect(b!.market.events).toEqual(again.market.events);
    expect(a!.market.events.map((e) => e.lot_number)).not.toEqual(b!.market.events.map((e) => e.lot_number));
  });
});
