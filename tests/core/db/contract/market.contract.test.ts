import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketBand } from '../../../../src/core/db/marketCompsRepo';
import { engines, type EngineDb } from '../../../helpers/engines';
import { restRepos, type RestRepos } from './restRepos';

// MarketCompsRepo's contract (src/core/db/marketCompsRepo.ts defines it) on every engine: the SQLite store's
// repository, KyselyMarketCompsRepo over SQLite and over PostgreSQL give the same answers to the same calls.

const BAND: MarketBand = {
  source: 'demo',
  platform: 'copart',
  make: 'Audi',
  model: 'a4',
  year_from: 2016,
  year_to: 2018,
};
const KEY = 'demo|copart|AUDI|A4|2016-2018';

for (const e of engines()) {
  describe.skipIf(e.skip)(`MarketCompsRepo on ${e.name}`, () => {
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

    it('stores an answer per band (make and model in any case are one band) and replaces it', async () => {
      expect(await r.market.get(BAND)).toBeNull();
      await r.market.put(BAND, 1_000, ['copart:1', 'iaai:2'], 2, 3);
      const answer = {
        band: KEY,
        source: 'demo',
        platform: 'copart',
        make: 'AUDI',
        model: 'A4',
        year_from: 2016,
        year_to: 2018,
        fetched_at: 1_000,
        lot_keys: ['copart:1', 'iaai:2'],
        requests: 2,
        pages: 3,
        error: null,
        error_at: null,
      };
      expect(await r.market.get(BAND)).toEqual(answer);
      expect(await r.market.get({ ...BAND, make: 'AUDI', model: 'A4' })).toEqual(answer);
      expect(await r.market.get({ ...BAND, year_to: 2019 })).toBeNull();
      expect(await r.market.get({ ...BAND, source: 'https://api.example' })).toBeNull();
      await r.market.put({ ...BAND, make: 'audi' }, 2_000, [], 1, 1);
      expect(await r.market.get(BAND)).toEqual({
        ...answer,
        fetched_at: 2_000,
        lot_keys: [],
        requests: 1,
        pages: 1,
      });
    });

    it('records a failure beside the stored answer, and a later answer clears it', async () => {
      await r.market.put(BAND, 1_000, ['copart:1'], 1, 1);
      await r.market.fail(BAND, 2_000, 'The service did not answer.');
      expect(await r.market.get(BAND)).toMatchObject({
        fetched_at: 1_000,
        lot_keys: ['copart:1'],
        requests: 1,
        pages: 1,
        error: 'The service did not answer.',
        error_at: 2_000,
      });
      await r.market.fail(BAND, 3_000, 'Again.');
      expect(await r.market.get(BAND)).toMatchObject({ fetched_at: 1_000, error: 'Again.', error_at: 3_000 });
      await r.market.put(BAND, 4_000, ['copart:9'], 1, 1);
      expect(await r.market.get(BAND)).toMatchObject({
        fetched_at: 4_000,
        lot_keys: ['copart:9'],
        error: null,
        error_at: null,
      });
    });

    it('a band that never got an answer is stored by its failure alone', async () => {
      await r.market.fail(BAND, 2_000, 'Refused.');
      expect(await r.market.get(BAND)).toEqual({
        band: KEY,
        source: 'demo',
        platform: 'copart',
        make: 'AUDI',
        model: 'A4',
        year_from: 2016,
        year_to: 2018,
        fetched_at: null,
        lot_keys: [],
        requests: 0,
        pages: 0,
        error: 'Refused.',
        error_at: 2_000,
      });
    });

    it('joins the store transaction: a throw undoes its answer', async () => {
      await expect(
        r.transaction(async () => {
          await r.market.put(BAND, 1_000, ['copart:1'], 1, 1);
          expect(await r.market.get(BAND)).not.toBeNull();
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await r.market.get(BAND)).toBeNull();
    });
  });
}
