import { describe, expect, it } from 'vitest';
import { pagesPerRun, RequestBudget } from '../../../src/core/watch/budget';
import type { QuotaSnapshot } from '../../../src/shared/vehicle';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 5, 10, 12);

/** A budget over a plain list of send times (ms), on a plan's quota: `remaining` of 100 left until `periodEnd`. */
function onPlan(sent: number[], remaining: number, periodEnd: number): RequestBudget {
  return new RequestBudget({
    spentSince: (t) => sent.filter((x) => x >= t).length,
    sentSince: (t) => sent.filter((x) => x >= t).sort((a, b) => a - b),
    quota: (): QuotaSnapshot => ({
      at: now,
      limit: 100,
      baseLimit: 100,
      extraLimit: 0,
      used: 100 - remaining,
      remaining,
      periodStart: periodEnd - 30 * DAY,
      periodEnd,
      perPageLimit: 20,
      rateLimit: null,
      rateRemaining: null,
    }),
    userPerDay: () => null,
  });
}

describe('pagesPerRun', () => {
  it("counts the last run's records at 20 a page, but a run that stopped short says nothing of the list's length", () => {
    expect(pagesPerRun({ max_pages: 5, last_result_count: 45, last_complete: true })).toBe(3);
    expect(pagesPerRun({ max_pages: 5, last_result_count: 20, last_complete: false })).toBe(5);
    expect(pagesPerRun({ max_pages: 5, last_result_count: null })).toBe(5);
  });
});

describe("paidAt (a saved search's run on a plan's quota)", () => {
  it('keeps 5-page runs on 100 requests a month apart by what they cost, not a day apart', () => {
    // 90 left for 27 days: 3.33 a day. A 5-page run went out an hour ago.
    const ran = Array.from({ length: 5 }, (_, i) => now - HOUR + i * 1000);
    const b = onPlan(ran, 90, now + 27 * DAY);
    const at = b.paidAt(5, now);
    // Five tokens at 3.33 a day take about a day and a half to come back: not before the rolling day forgets the run.
    expect(at).toBeGreaterThan(now + DAY);
    expect(at).toBeLessThan(now + 2 * DAY);
    // Nothing sent for days: paid for now.
    expect(onPlan([now - 5 * DAY], 90, now + 27 * DAY).paidAt(5, now)).toBe(now);
  });

  it("spreads the period's last runs to an hour before its reset, from the list's last run", () => {
    // 6 left, 3-page runs, the list last read 1.8 days before the reset: two runs share the time to an hour before
    // it (the day's share alone would let the next one go now and leave the month's last day without a look).
    const end = now + DAY;
    const lastRun = end - 1.8 * DAY;
    const ran = [0, 1, 2].map((i) => lastRun + i * 1000);
    const b = onPlan(ran, 6, end);
    expect(b.paidAt(3, now)).toBeLessThanOrEqual(now);
    const spread = lastRun + (end - HOUR - lastRun) / 2;
    expect(b.paidAt(3, now, lastRun)).toBe(spread);
    // The last run the plan has left waits for the hour before the reset.
    expect(onPlan(ran, 3, end).paidAt(3, now, lastRun)).toBe(end - HOUR);
    // Within that hour it is paid for at the pace alone.
    expect(onPlan(ran, 3, end).paidAt(3, end - HOUR / 2, end - HOUR / 2)).toBeLessThanOrEqual(end - HOUR / 2);
  });

  it('leaves a run early in the period to the pace: many runs left spread over the month cost no extra wait', () => {
    // 90 left for 27 days, a 5-page run a day and a half ago: 18 runs share 27 days, so the spread asks for a run
    // every 1.5 days, no later than the pace's own.
    const lastRun = now - 1.5 * DAY;
    const ran = Array.from({ length: 5 }, (_, i) => lastRun + i * 1000);
    const b = onPlan(ran, 90, now + 27 * DAY);
    expect(b.paidAt(5, now, lastRun)).toBe(b.paidAt(5, now));
  });

  it('is never when the plan allows nothing', () => {
    expect(onPlan([], 0, now + 3 * DAY).paidAt(5, now)).toBe(Infinity);
  });
});

/** A budget on the buyer's own limit of `perDay` requests a day over a plain list of send times (ms). */
function onLimit(sent: number[], perDay: number): RequestBudget {
  return new RequestBudget({
    spentSince: (t) => sent.filter((x) => x >= t).length,
    sentSince: (t) => sent.filter((x) => x >= t).sort((a, b) => a - b),
    quota: () => null,
    userPerDay: () => perDay,
  });
}

describe('leavesPlaces (the rolling day kept for the sale-result looks ahead)', () => {
  it('keeps a place for a look ten hours ahead, not only for the looks before the bucket refills', () => {
    // 30 a day, 20 sent this morning: 10 places left until they age out tomorrow morning.
    const morning = Array.from({ length: 20 }, (_, i) => now - 2 * HOUR + i * 1000);
    const b = onLimit(morning, 30);
    const looks = [now + 10 * HOUR, now + 12 * HOUR, now + 14 * HOUR];
    // Seven pages now leave exactly the three looks' places; eight would take the third one's.
    expect(b.leavesPlaces(7, now, looks, 15)).toBe(true);
    expect(b.leavesPlaces(8, now, looks, 15)).toBe(false);
    // The plain day's check would let the eighth page go.
    expect(b.canSpend(8, now)).toBe(true);
  });

  it('frees the places of requests that have aged out of a later look’s rolling day', () => {
    // 28 sent 23 hours ago: they leave the rolling day within the hour, so a look two hours ahead has room.
    const yesterday = Array.from({ length: 28 }, (_, i) => now - 23 * HOUR + i * 1000);
    const b = onLimit(yesterday, 30);
    expect(b.leavesPlaces(1, now, [now + 2 * HOUR, now + 3 * HOUR], 15)).toBe(true);
    // A look due now still finds the day nearly full: one more request now would take its place.
    expect(b.leavesPlaces(2, now, [now], 15)).toBe(false);
  });

  it('counts at most `most` looks, so the other half of the day stays for searches and bid looks', () => {
    const b = onLimit([], 30);
    const many = Array.from({ length: 40 }, (_, i) => now + HOUR + i * 10 * 60_000);
    expect(b.leavesPlaces(15, now, many, 15)).toBe(true);
    expect(b.leavesPlaces(16, now, many, 15)).toBe(false);
  });
});
