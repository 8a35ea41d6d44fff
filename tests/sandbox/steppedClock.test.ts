import { describe, expect, it } from 'vitest';
import { SteppedClock } from '../../src/sandbox/steppedClock';

// The stepped Demo's clock: market time moves only in a step; the network's own waits read it moved on by wall time.

const T = Date.UTC(2026, 10, 26, 12, 0, 0);
const idle = (): Promise<void> => Promise.resolve();

describe('SteppedClock', () => {
  it('fires timers in time order (set order at one time), cancelled ones never, and only while a step passes them', async () => {
    const c = new SteppedClock(T);
    const ran: string[] = [];
    c.setTimeout(() => ran.push('b'), 2_000);
    c.setTimeout(() => ran.push('a'), 1_000);
    c.setTimeout(() => ran.push('a2'), 1_000);
    const cancel = c.setTimeout(() => ran.push('never'), 1_500);
    cancel();
    // A timer set by a timer for a time inside the step fires in the same step.
    c.setTimeout(() => c.setTimeout(() => ran.push(`chained@${c.now() - T}`), 500), 1_000);
    expect(ran).toEqual([]);
    expect(await c.step(1_600, idle)).toBe(T + 1_600);
    expect(ran).toEqual(['a', 'a2', 'chained@1500']);
    expect(await c.step(0, idle)).toBe(T + 1_600);
    await c.step(400, idle);
    expect(ran).toEqual(['a', 'a2', 'chained@1500', 'b']);
    expect(c.pending).toBe(0);
  });

  it('queues overlapping steps, refuses a negative or fractional step, and stops a timer that keeps setting itself', async () => {
    const c = new SteppedClock(T, 50);
    const both = Promise.all([c.step(1_000, idle), c.step(1_000, idle)]);
    expect(await both).toEqual([T + 1_000, T + 2_000]);
    await expect(c.step(-1, idle)).rejects.toThrow(RangeError);
    await expect(c.step(0.5, idle)).rejects.toThrow(RangeError);
    const again = (): void => void c.setTimeout(again, 0);
    again();
    await expect(c.step(1_000, idle)).rejects.toThrow(/more than 50 timers/);
    expect(c.now()).toBe(T + 2_000);
  });

  it('gives the network market time moved on by the wall time since the last change, never going back', async () => {
    let wall = 1_000_000;
    const c = new SteppedClock(T, 100, () => wall);
    expect(c.netNow()).toBe(T);
    wall += 250;
    expect(c.netNow()).toBe(T + 250);
    expect(c.now()).toBe(T);
    await c.step(100, idle);
    // The market moved less than the wall did: the network's time holds rather than going back.
    expect(c.netNow()).toBe(T + 250);
    wall += 100;
    expect(c.netNow()).toBe(T + 250);
    await c.step(60_000, idle);
    expect(c.netNow()).toBe(T + 60_100);
  });
});
