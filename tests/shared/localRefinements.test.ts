import { describe, expect, it } from 'vitest';
import {
  joinSearch,
  LocalRefinementsSchema,
  passesRefinements,
  splitDamage,
  splitSearch,
} from '../../src/shared/localRefinements';

describe('local refinements: what is sent and what Lotwatch filters itself', () => {
  it('sends specification damage (its spelling), and nothing of a pick that holds another damage', () => {
    expect(splitDamage(['hail', 'WATER'])).toEqual({ sent: ['Hail', 'Water'], local: [] });
    // "Hail or Front end": sending damage=Hail would drop the front-end lots, so both are kept locally.
    expect(splitDamage(['Hail', 'Front end', ' ', 'Front end'])).toEqual({
      sent: [],
      local: ['Hail', 'Front end'],
    });
    expect(splitSearch({ make: 'KIA', damage: ['Front end'] })).toEqual({
      params: { make: 'KIA' },
      refine: { damage: ['Front end'] },
    });
    expect(splitSearch({ make: 'KIA' })).toEqual({ params: { make: 'KIA' }, refine: {} });
  });

  it('joins a saved search back into one damage list for the form', () => {
    expect(joinSearch({ make: 'KIA' }, { damage: ['Front end'] })).toEqual({
      make: 'KIA',
      damage: ['Front end'],
    });
    expect(joinSearch({ damage: ['Hail'] }, {})).toEqual({ damage: ['Hail'] });
  });

  it('keeps a lot whose primary damage is a picked kind, ignoring case and separators', () => {
    const r = { damage: ['Front end', 'Minor dent/scratches'] };
    expect(passesRefinements({ damage: 'FRONT END' }, r)).toBe(true);
    expect(passesRefinements({ damage: 'Minor Dent / Scratches' }, r)).toBe(true);
    expect(passesRefinements({ damage: 'Rear end' }, r)).toBe(false);
    expect(passesRefinements({ damage: null }, r)).toBe(false);
    expect(passesRefinements({ damage: null }, {})).toBe(true);
  });

  it('refuses a malformed refinement with a typed error, not a crash', () => {
    expect(LocalRefinementsSchema.safeParse({ damage: [''] }).success).toBe(false);
    expect(LocalRefinementsSchema.safeParse({ colour: ['red'] }).success).toBe(false);
    expect(LocalRefinementsSchema.parse({ damage: [' Front end '] })).toEqual({ damage: ['Front end'] });
  });
});
