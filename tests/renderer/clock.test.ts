import { afterEach, describe, expect, it, vi } from 'vitest';
import { appNow, syncAppClock } from '../../src/renderer/src/lib/clock';
import { relative } from '../../src/renderer/src/lib/format';

describe('app clock', () => {
  afterEach(() => vi.useRealTimers());

  it('follows core on an accelerated demo clock, so an alert raised now reads "just now"', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    // Core's market runs 120x and is already 6 minutes ahead of the page.
    syncAppClock({ now: 1_000_000 + 360_000, speed: 120 });
    expect(appNow()).toBe(1_360_000);
    vi.setSystemTime(1_001_000); // one wall second later: two market minutes
    expect(appNow()).toBe(1_480_000);
    expect(relative(1_480_000, appNow())).toBe('just now');
    expect(relative(1_480_000 - 300_000, appNow())).toBe('5 minutes ago');
  });

  it('runs at the page clock in real time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(5_000);
    syncAppClock({ now: 5_000, speed: 1 });
    vi.setSystemTime(65_000);
    expect(appNow()).toBe(65_000);
  });
});
