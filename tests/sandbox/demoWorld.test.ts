import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoMarketClock, demoWorldStart } from '../../src/sandbox/demo';

const DAY = 86_400_000;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the Demo world across restarts', () => {
  it('keeps its start time for a restart within a week, so the same lots come back moved on', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t0 = Date.UTC(2026, 10, 23, 9, 30, 42);
    const first = demoWorldStart(dir, t0);
    expect(first).toBe(Date.UTC(2026, 10, 23, 9, 30));
    expect(JSON.parse(readFileSync(join(dir, 'demo-market.json'), 'utf8'))).toEqual({ startTime: first });
    expect(demoWorldStart(dir, t0 + 3 * DAY)).toBe(first);
  });

  it('starts a new world after a week, or when the file is unreadable', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t0 = Date.UTC(2026, 10, 1);
    const first = demoWorldStart(dir, t0);
    const later = t0 + 8 * DAY;
    expect(demoWorldStart(dir, later)).toBe(later);
    writeFileSync(join(dir, 'demo-market.json'), '{ not json');
    expect(demoWorldStart(dir, later + 60_000)).toBe(later + 60_000);
    expect(first).not.toBe(later);
  });

  it('works with a folder it cannot write to (a new world each time, no error)', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t = Date.UTC(2026, 10, 23, 10);
    expect(demoWorldStart(join(dir, 'missing', 'deeper'), t)).toBe(t);
  });
});

describe('the accelerated Demo market across restarts', () => {
  const MIN = 60_000;

  it('resumes from the market time the last run reached, in the same world, never earlier', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    let wall = Date.UTC(2026, 10, 23, 9, 30, 42);
    const first = demoMarketClock(dir, { speed: 600, wallNow: () => wall });
    expect(first.startTime).toBe(Date.UTC(2026, 10, 23, 9, 30));
    expect(first.now()).toBe(wall);
    wall += 30_000; // 30 s of wall time: 5 market hours
    const reached = first.now();
    expect(reached).toBe(Date.UTC(2026, 10, 23, 9, 30, 42) + 5 * 60 * MIN);
    first.close();
    wall += 2_000;
    const second = demoMarketClock(dir, { speed: 600, wallNow: () => wall });
    expect(second.startTime).toBe(first.startTime);
    expect(second.now()).toBe(reached);
    wall += 1_000;
    expect(second.now()).toBe(reached + 600_000);
    second.close();
  });

  it('after a run that was killed (no close), resumes at or past every time that run read', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    let wall = Date.UTC(2026, 10, 23, 10);
    const killed = demoMarketClock(dir, { speed: 3600, wallNow: () => wall, leaseMs: 10_000 });
    let seen = 0;
    for (let i = 0; i < 50; i++) {
      wall += 777;
      seen = Math.max(seen, killed.now());
    }
    const next = demoMarketClock(dir, { speed: 3600, wallNow: () => wall });
    expect(next.now()).toBeGreaterThanOrEqual(seen);
    expect(next.startTime).toBe(killed.startTime);
  });

  it('never goes back when the wall clock is set back', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    let wall = Date.UTC(2026, 10, 23, 10);
    const c = demoMarketClock(dir, { speed: 60, wallNow: () => wall });
    wall += 10_000;
    const t = c.now();
    wall -= 60_000;
    expect(c.now()).toBe(t);
  });

  it('starts a new world at the time reached, not earlier, once the world is older than a week of market time', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    let wall = Date.UTC(2026, 10, 1);
    const c = demoMarketClock(dir, { speed: 3600, wallNow: () => wall });
    wall += 200_000; // about 8 market days
    const reached = c.now();
    c.close();
    const next = demoMarketClock(dir, { speed: 3600, wallNow: () => wall });
    expect(next.startTime).toBe(Math.floor(reached / MIN) * MIN);
    expect(next.now()).toBe(reached);
  });

  it('a real-time start after a fast run that went past the present begins a new world; one that did not, keeps it', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    let wall = Date.UTC(2026, 10, 23, 10);
    const slow = demoMarketClock(dir, { speed: 2, wallNow: () => wall });
    wall += 1_000;
    slow.now();
    slow.close();
    // An hour later real time has passed the market: same world.
    expect(demoWorldStart(dir, wall + 60 * MIN)).toBe(slow.startTime);
    const fast = demoMarketClock(dir, { speed: 3600, wallNow: () => wall + 60 * MIN });
    wall += 10_000;
    fast.now();
    fast.close();
    // Ten market hours ahead of the present: real time cannot continue that world without selling its lots again.
    const now = wall + 60 * MIN + 1_000;
    expect(demoWorldStart(dir, now)).toBe(Math.floor(now / MIN) * MIN);
  });
});
