import { describe, expect, it } from 'vitest';
import { sweepCursorOf } from '../../../src/core/watch/sweepCursors';

// A sweep goes on from its stored cursor only while a sweep is under way (a `sweep_from` beside it); otherwise the
// run reads the window or the head of the list.
describe('sweepCursorOf', () => {
  it('gives back the cursor the last run stopped at while its sweep is under way', () => {
    expect(sweepCursorOf({ sweep_from: 1000, sweep_cursor: 'c1' })).toBe('c1');
  });

  it('gives none without a cursor or without a sweep under way', () => {
    expect(sweepCursorOf({ sweep_from: 1000, sweep_cursor: null })).toBeUndefined();
    expect(sweepCursorOf({ sweep_from: null, sweep_cursor: 'c1' })).toBeUndefined();
  });
});
