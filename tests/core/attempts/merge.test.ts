import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dayOf,
  mergeAttempts,
  VANISHED_AFTER_MS,
  type AttemptSighting,
} from '../../../src/core/diff/attempts';

// One vehicle's attempts merged from the store, the sale history and an Ended search by VIN.
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 20, 12);

function seen(over: Partial<AttemptSighting>): AttemptSighting {
  return {
    source: 'store',
    platform: 'copart',
    lot_number: '100',
    day: '2026-06-01',
    auction_at: Date.UTC(2026, 5, 1, 15),
    bid_usd: null,
    price_usd: null,
    result: null,
    first_seen_at: null,
    last_seen_at: null,
    ...over,
  };
}

describe('mergeAttempts', () => {
  it('makes the same attempt from two sources one row that names both, confirmed by the result reported', () => {
    const a = mergeAttempts(
      [
        seen({ bid_usd: 6600, result: 'sold_on_approval', price_usd: 6600, first_seen_at: NOW - 30 * DAY }),
        // The real history row: no lot number, the sale day, "Sold on Approval".
        seen({
          source: 'history',
          lot_number: null,
          auction_at: null,
          result: 'sold_on_approval',
          price_usd: 6600,
        }),
      ],
      NOW,
    );
    expect(a).toEqual([
      {
        number: 1,
        platform: 'copart',
        lot_number: '100',
        day: '2026-06-01',
        auction_at: Date.UTC(2026, 5, 1, 15),
        bid_usd: 6600,
        price_usd: 6600,
        outcome: 'sold_on_approval',
        basis: 'confirmed',
        sources: ['store', 'history'],
        first_seen_at: NOW - 30 * DAY,
        last_seen_at: null,
      },
    ]);
  });

  it('infers, never calls unsold: a lot shown open past its sale came back (relisted) or vanished', () => {
    const first = seen({ result: 'open', bid_usd: 5000 });
    const second = seen({
      lot_number: '200',
      day: '2026-06-10',
      auction_at: Date.UTC(2026, 5, 10, 15),
      result: 'open',
    });
    const a = mergeAttempts([first, second], NOW);
    expect(a.map((x) => [x.number, x.outcome, x.basis])).toEqual([
      [1, 'relisted', 'inferred'],
      [2, 'vanished', 'inferred'],
    ]);
    // Before its sale time (and a day's grace for a live sale running late) an open lot stays open.
    const early = mergeAttempts([second], Date.UTC(2026, 5, 10, 15) + VANISHED_AFTER_MS - 1);
    expect(early[0]).toMatchObject({ outcome: 'open', basis: 'confirmed' });
    expect(a.some((x) => x.outcome === 'ended_unsold')).toBe(false);
  });

  it('takes the most final result reported: a sale on approval later accepted is sold', () => {
    const a = mergeAttempts(
      [
        seen({ result: 'sold_on_approval', price_usd: 6200 }),
        seen({ source: 'history', lot_number: null, result: 'sold', price_usd: 6200 }),
      ],
      NOW,
    );
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ outcome: 'sold', basis: 'confirmed', price_usd: 6200 });
  });

  it('joins a history row to the attempt a day apart (a sale ending past midnight UTC), only when it is the one', () => {
    const a = mergeAttempts(
      [
        seen({ result: 'sold', price_usd: 9000 }),
        seen({ source: 'history', lot_number: null, day: '2026-06-02', result: 'sold', price_usd: 9000 }),
      ],
      NOW,
    );
    expect(a).toHaveLength(1);
    expect(a[0]!.sources).toEqual(['store', 'history']);
    // Two lots of the platform that day and a row that matches neither's result: it stays its own attempt.
    const b = mergeAttempts(
      [
        seen({ result: 'sold', price_usd: 9000 }),
        seen({ lot_number: '300', result: 'sold', price_usd: 9100 }),
        seen({ source: 'history', lot_number: null, result: 'sold_on_approval', price_usd: 8000 }),
      ],
      NOW,
    );
    expect(b).toHaveLength(3);
  });

  it('keeps the two platforms and two sales under one lot number apart, in time order', () => {
    const a = mergeAttempts(
      [
        seen({
          platform: 'IAAI',
          lot_number: '100',
          day: '2026-06-05',
          auction_at: null,
          result: 'ended_unsold',
        }),
        seen({ result: 'ended_unsold', bid_usd: 4000 }),
        seen({ day: '2026-06-12', auction_at: Date.UTC(2026, 5, 12, 15), result: 'sold', price_usd: 4100 }),
      ],
      NOW,
    );
    expect(a.map((x) => `${x.number} ${x.platform} ${x.lot_number} ${x.day} ${x.outcome}`)).toEqual([
      '1 copart 100 2026-06-01 ended_unsold',
      '2 iaai 100 2026-06-05 ended_unsold',
      '3 copart 100 2026-06-12 sold',
    ]);
  });

  it('reads days as the sources write them, never in the machine zone', () => {
    expect(dayOf('2026-06-01')).toBe('2026-06-01');
    expect(dayOf('2026-06-01T23:30:00-04:00')).toBe('2026-06-02');
    expect(dayOf('2026-06-01T10:00:00')).toBeNull();
    expect(dayOf(Date.UTC(2026, 5, 1, 23, 59))).toBe('2026-06-01');
    expect(dayOf(Number.NaN)).toBeNull();
    expect(dayOf(null)).toBeNull();
  });
});

// Small domains so that sightings often fall on the same attempt and often do not.
const sighting: fc.Arbitrary<AttemptSighting> = fc.record({
  source: fc.constantFrom('store', 'history', 'ended_search'),
  platform: fc.constantFrom('copart', 'iaai', 'IAAI', null),
  lot_number: fc.constantFrom('100', '200', null),
  day: fc.constantFrom('2026-06-01', '2026-06-02', '2026-06-05', null),
  auction_at: fc.constantFrom(null, Date.UTC(2026, 5, 1, 15), Date.UTC(2026, 5, 5, 15)),
  bid_usd: fc.constantFrom(null, 4000, 6200, 6600),
  price_usd: fc.constantFrom(null, 6200, 6600),
  result: fc.constantFrom(null, 'open', 'sold', 'sold_on_approval', 'ended_unsold'),
  first_seen_at: fc.constantFrom(null, NOW - 40 * DAY, NOW - 20 * DAY),
  last_seen_at: fc.constantFrom(null, NOW - 10 * DAY),
});

describe('mergeAttempts properties', () => {
  it('gives the same attempts whatever order the sources answer in', () => {
    fc.assert(
      fc.property(fc.array(sighting, { maxLength: 12 }), fc.integer(), (ss, seed) => {
        const shuffled = [...ss].sort((a, b) => hash(a, seed) - hash(b, seed) || 0);
        expect(mergeAttempts(shuffled, NOW)).toEqual(mergeAttempts(ss, NOW));
      }),
    );
  });

  it('never drops an attempt: every sighting lands in one attempt with its source, numbered 1..n', () => {
    fc.assert(
      fc.property(fc.array(sighting, { maxLength: 12 }), (ss) => {
        const a = mergeAttempts(ss, NOW);
        expect(a.map((x) => x.number)).toEqual(a.map((_, i) => i + 1));
        expect(a.length).toBeLessThanOrEqual(ss.length);
        for (const s of ss) {
          const home = a.filter(
            (x) =>
              x.platform === (s.platform?.toLowerCase() ?? null) &&
              x.sources.includes(s.source) &&
              (s.lot_number === null || x.lot_number === s.lot_number),
          );
          expect(home.length).toBeGreaterThan(0);
        }
        // Distinct lot numbers of one platform and day are never merged.
        const keys = ss
          .filter((s) => s.lot_number !== null)
          .map((s) => `${s.platform?.toLowerCase() ?? ''}|${s.lot_number}|${s.day}`);
        expect(a.filter((x) => x.lot_number !== null).length).toBe(new Set(keys).size);
      }),
    );
  });

  it('marks an attempt confirmed exactly when some source reported its result or showed it open', () => {
    fc.assert(
      fc.property(fc.array(sighting, { maxLength: 8 }), (ss) => {
        for (const a of mergeAttempts(ss, NOW)) {
          if (a.basis === 'inferred') expect(['relisted', 'vanished', 'open']).toContain(a.outcome);
          else expect(['sold', 'sold_on_approval', 'ended_unsold', 'open']).toContain(a.outcome);
          if (a.outcome !== 'sold' && a.outcome !== 'sold_on_approval') expect(a.price_usd).toBeNull();
        }
      }),
    );
  });
});

/** A stable pseudo-random rank of a sighting for a shuffle. */
function hash(s: AttemptSighting, seed: number): number {
  let h = seed | 0;
  for (const ch of JSON.stringify(s)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}
