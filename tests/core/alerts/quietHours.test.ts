import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inQuietHours, quietHoursEnd } from '../../../src/core/alerts';
import type { QuietHours } from '../../../src/shared/watch';
import { DAY, MIN, NIGHT } from '../diff/fixtures';

/** The instant at which the local clock (UTC offset `tz` minutes) reads hh:mm on 2025-01-10 (local date). */
const local = (hh: number, mm: number, tz: number) => Date.UTC(2025, 0, 10, hh, mm) - tz * MIN;
const LUNCH: QuietHours = { enabled: true, start: '13:00', end: '14:00' };

describe('inQuietHours', () => {
  for (const tz of [-300, 0, 330, 840, -720]) {
    it(`handles a window across midnight at offset ${tz}`, () => {
      expect(inQuietHours(local(22, 0, tz), NIGHT, tz)).toBe(true); // exactly at start: inside
      expect(inQuietHours(local(21, 59, tz), NIGHT, tz)).toBe(false);
      expect(inQuietHours(local(23, 59, tz), NIGHT, tz)).toBe(true);
      expect(inQuietHours(local(0, 0, tz), NIGHT, tz)).toBe(true);
      expect(inQuietHours(local(6, 59, tz), NIGHT, tz)).toBe(true);
      expect(inQuietHours(local(7, 0, tz), NIGHT, tz)).toBe(false); // exactly at end: outside
      expect(inQuietHours(local(7, 0, tz) - 1, NIGHT, tz)).toBe(true);
      expect(inQuietHours(local(12, 0, tz), NIGHT, tz)).toBe(false);
    });

    it(`handles a window within a day at offset ${tz}`, () => {
      expect(inQuietHours(local(13, 0, tz), LUNCH, tz)).toBe(true);
      expect(inQuietHours(local(13, 30, tz), LUNCH, tz)).toBe(true);
      expect(inQuietHours(local(14, 0, tz), LUNCH, tz)).toBe(false);
      expect(inQuietHours(local(12, 59, tz), LUNCH, tz)).toBe(false);
      expect(inQuietHours(local(0, 0, tz), LUNCH, tz)).toBe(false);
    });
  }

  it('uses the offset: 03:00 UTC is quiet in New York (22:00 EST) but not in London', () => {
    const t = Date.UTC(2025, 0, 10, 3, 0);
    expect(inQuietHours(t, NIGHT, -300)).toBe(true);
    expect(inQuietHours(t, NIGHT, 0)).toBe(true);
    expect(inQuietHours(Date.UTC(2025, 0, 10, 12, 0), NIGHT, -300)).toBe(false);
    expect(inQuietHours(Date.UTC(2025, 0, 10, 23, 0), NIGHT, 0)).toBe(true);
    expect(inQuietHours(Date.UTC(2025, 0, 10, 23, 0), NIGHT, -300)).toBe(false); // 18:00 EST
  });

  it('is never quiet when disabled or when start equals end', () => {
    expect(inQuietHours(local(23, 0, 0), { ...NIGHT, enabled: false }, 0)).toBe(false);
    for (const h of [0, 7, 12, 22, 23]) {
      expect(inQuietHours(local(h, 0, 0), { enabled: true, start: '07:00', end: '07:00' }, 0)).toBe(false);
    }
  });

  it('works before 1970 and far ahead (negative and large times)', () => {
    expect(inQuietHours(Date.UTC(1969, 11, 31, 23, 0), NIGHT, 0)).toBe(true);
    expect(inQuietHours(Date.UTC(2200, 5, 1, 12, 0), NIGHT, 0)).toBe(false);
  });
});

describe('quietHoursEnd', () => {
  it('gives the end of the current window, across midnight', () => {
    expect(quietHoursEnd(local(22, 0, -300), NIGHT, -300)).toBe(local(7, 0, -300) + DAY);
    expect(quietHoursEnd(local(23, 30, -300), NIGHT, -300)).toBe(local(7, 0, -300) + DAY);
    expect(quietHoursEnd(local(3, 0, -300), NIGHT, -300)).toBe(local(7, 0, -300));
    expect(quietHoursEnd(local(7, 0, -300) - 1, NIGHT, -300)).toBe(local(7, 0, -300));
  });

  it('gives the end of the window within a day', () => {
    expect(quietHoursEnd(local(13, 15, 60), LUNCH, 60)).toBe(local(14, 0, 60));
  });

  it('outside the window, gives the end of the next one', () => {
    expect(quietHoursEnd(local(7, 0, 0), NIGHT, 0)).toBe(local(7, 0, 0) + DAY);
    expect(quietHoursEnd(local(12, 0, 0), NIGHT, 0)).toBe(local(7, 0, 0) + DAY);
    expect(quietHoursEnd(local(15, 0, 0), LUNCH, 0)).toBe(local(14, 0, 0) + DAY);
  });

  it('gives now when quiet hours are off', () => {
    const t = local(23, 0, 0);
    expect(quietHoursEnd(t, { ...NIGHT, enabled: false }, 0)).toBe(t);
    expect(quietHoursEnd(t, { enabled: true, start: '01:00', end: '01:00' }, 0)).toBe(t);
  });

  it('property: inside the window the end is within a day, after now, outside, and everything before it is inside', () => {
    const hhmm = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        hhmm,
        hhmm,
        fc.integer({ min: -720, max: 840 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (start, end, tz, now) => {
          const q: QuietHours = { enabled: true, start, end };
          const e = quietHoursEnd(now, q, tz);
          if (start === end) {
            expect(e).toBe(now);
            return;
          }
          expect(e).toBeGreaterThan(now);
          expect(e - now).toBeLessThanOrEqual(DAY);
          expect(inQuietHours(e, q, tz)).toBe(false);
          if (inQuietHours(now, q, tz)) expect(inQuietHours(e - 1, q, tz)).toBe(true);
          expect(Math.abs((e + tz * MIN) % MIN)).toBe(0); // on a whole local minute
        },
      ),
    );
  });
});
