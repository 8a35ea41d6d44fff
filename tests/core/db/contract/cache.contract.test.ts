import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engines, type EngineDb } from '../../../helpers/engines';
import { restRepos, type RestRepos } from './restRepos';

// CacheRepo's contract (src/core/db/cacheRepo.ts defines it) on every engine: the SQLite store's repository,
// KyselyCacheRepo over SQLite and over PostgreSQL give the same answers to the same calls.

for (const e of engines()) {
  describe.skipIf(e.skip)(`CacheRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    it('stores, replaces and forgets a value under its key, with when it was stored', async () => {
      expect(await r.cache.get('filters')).toBeNull();
      await r.cache.put('filters', '{"makes":["HONDA"]}', 1_000);
      await r.cache.put('flag:examples-added', '1', 2_000);
      expect(await r.cache.get('filters')).toEqual({ value: '{"makes":["HONDA"]}', updated_at: 1_000 });
      await r.cache.put('filters', '{"makes":[]}', 3_000);
      expect(await r.cache.get('filters')).toEqual({ value: '{"makes":[]}', updated_at: 3_000 });
      expect(await r.cache.get('flag:examples-added')).toEqual({ value: '1', updated_at: 2_000 });
      await r.cache.delete('filters');
      expect(await r.cache.get('filters')).toBeNull();
      await r.cache.delete('never-stored');
      expect(await r.cache.get('flag:examples-added')).toEqual({ value: '1', updated_at: 2_000 });
    });

    it('keeps any text as given: empty, long, not ASCII, quotes and backslashes', async () => {
      const texts = ['', 'x'.repeat(200_000), 'Škoda — 東京 ✓', `it's "quoted" \\ back\nline`];
      for (const [i, t] of texts.entries()) await r.cache.put(`k${i}`, t, i);
      for (const [i, t] of texts.entries())
        expect(await r.cache.get(`k${i}`)).toEqual({ value: t, updated_at: i });
      expect(await r.cache.get('K0')).toBeNull();
    });

    it('joins the store transaction: a throw undoes its puts and deletes', async () => {
      await r.cache.put('a', '1', 1);
      await expect(
        r.transaction(async () => {
          await r.cache.put('a', '2', 2);
          await r.cache.put('b', '1', 2);
          expect(await r.cache.get('a')).toEqual({ value: '2', updated_at: 2 });
          await r.cache.delete('a');
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await r.cache.get('a')).toEqual({ value: '1', updated_at: 1 });
      expect(await r.cache.get('b')).toBeNull();
    });
  });
}
