import { describe, expect, it } from 'vitest';
import { SweepCursors } from '../../../src/core/watch/sweepCursors';

// A sweep goes on from a kept cursor only while the search's coverage stands where the run that kept it left it;
// anything else (a new sweep, an edited search, a run that ended the list) falls back to the window.
const at = (sweep_from: number | null) => ({ baseline_done: true, covered_until: null, sweep_from });

describe('SweepCursors', () => {
  it('gives back the cursor a run stopped at while the coverage is where that run left it', () => {
    const s = new SweepCursors();
    s.keep(1, at(1000), 'c1');
    expect(s.resume(1, at(1000))).toBe('c1');
    expect(s.resume(2, at(1000))).toBeUndefined();
  });

  it('forgets it once the coverage moved without it (an edited search, a skipped day, a new sweep)', () => {
    const s = new SweepCursors();
    s.keep(1, at(1000), 'c1');
    expect(s.resume(1, at(2000))).toBeUndefined();
    expect(s.resume(1, at(null))).toBeUndefined();
  });

  it('keeps nothing for a run that reached the end of the list or failed', () => {
    const s = new SweepCursors();
    s.keep(1, at(1000), 'c1');
    s.keep(1, at(1000), null);
    expect(s.resume(1, at(1000))).toBeUndefined();
    s.keep(1, at(null), 'c2');
    expect(s.resume(1, at(null))).toBeUndefined();
    // A failed first page stores no coverage: the run forgets the cursor itself, so a refused one is not sent again.
    s.keep(1, at(1000), 'c3');
    s.forget(1);
    expect(s.resume(1, at(1000))).toBeUndefined();
  });
});
