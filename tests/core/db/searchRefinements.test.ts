import { describe, expect, it } from 'vitest';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { storesPerTest } from '../../helpers/store';

// A saved search's local refinements are kept beside its parameters in the same column (docs/architecture.md
// "Local refinements"): read back apart, never among the parameters the client sends, and a change of them restarts
// the baseline like a change of parameters does.
const store = storesPerTest();
const base = {
  name: 'Front-end Kias',
  params: { make: 'KIA' },
  schedule: '0 * * * *',
  rules: AlertRulesSchema.parse({}),
  max_pages: 5,
  paused: false,
};

describe('saved search refinements in the store', () => {
  it('reads them back apart from the parameters, and none when none were saved', () => {
    const { s } = store();
    const id = s.sync.searches.insertSearch(
      { ...base, refine: { damage: ['Front end'] }, is_example: false },
      1,
    );
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      params: { make: 'KIA' },
      refine: { damage: ['Front end'] },
    });
    const plain = s.sync.searches.insertSearch({ ...base, is_example: false }, 1);
    expect(s.sync.searches.getSearch(plain)).toMatchObject({ params: { make: 'KIA' }, refine: {} });
  });

  it('a changed refinement restarts the baseline; the same one keeps it', () => {
    const { s } = store();
    const id = s.sync.searches.insertSearch(
      { ...base, refine: { damage: ['Front end'] }, is_example: false },
      1,
    );
    s.sync.searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: null });
    s.sync.searches.updateSearch(id, { ...base, refine: { damage: ['Front end'] } }, 2);
    expect(s.sync.searches.getSearch(id)?.baseline_done).toBe(true);
    s.sync.searches.updateSearch(id, { ...base, refine: { damage: ['Rear end'] } }, 3);
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      baseline_done: false,
      refine: { damage: ['Rear end'] },
    });
  });

  it('a damaged refinement reads as none, the search still lists', () => {
    const { s, db } = store();
    const id = s.sync.searches.insertSearch({ ...base, is_example: false }, 1);
    db.prepare('UPDATE saved_searches SET params = ? WHERE id = ?').run(
      JSON.stringify({ make: 'KIA', lotwatch_refine: { damage: 'Front end' } }),
      id,
    );
    expect(s.sync.searches.getSearch(id)).toMatchObject({ params: { make: 'KIA' }, refine: {} });
  });
});
