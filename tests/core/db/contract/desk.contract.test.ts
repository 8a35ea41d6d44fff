import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShippingPrice } from '../../../../src/shared/vehicle';
import { engines, type EngineDb } from '../../../helpers/engines';
import { lotRow, restRepos, type RestRepos } from './restRepos';

// DeskRepo's contract (src/core/db/deskRepo.ts defines it) on every engine: the SQLite store's repository,
// KyselyDeskRepo over SQLite and over PostgreSQL give the same answers to the same calls.

const price = (port: string | null, p: number | null, currency: string | null = 'USD'): ShippingPrice => ({
  port,
  price: p,
  currency,
  raw: null,
});

for (const e of engines()) {
  describe.skipIf(e.skip)(`DeskRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
      await r.seed
        .insertInto('lots')
        .values([
          lotRow({ lot_key: 'copart:1' }),
          lotRow({ lot_key: 'copart:2' }),
          lotRow({ lot_key: 'iaai:3' }),
        ])
        .execute();
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    it("writes a stored lot's notes and tags; an unknown lot has none and takes none", async () => {
      expect(await r.desk.notes('copart:1')).toEqual({ notes: '', tags: '' });
      expect(await r.desk.setNotes('copart:1', 'Check the frame.\nCall Bob.', 'export,flood')).toBe(true);
      expect(await r.desk.notes('copart:1')).toEqual({
        notes: 'Check the frame.\nCall Bob.',
        tags: 'export,flood',
      });
      expect(await r.desk.setNotes('copart:1', 'Check the frame.\nCall Bob.', 'export,flood')).toBe(true);
      expect(await r.desk.setNotes('copart:404', 'x', 'y')).toBe(false);
      expect(await r.desk.notes('copart:404')).toBeNull();
      expect(await r.desk.notes('copart:2')).toEqual({ notes: '', tags: '' });
    });

    it('lists every tag in use once, sorted', async () => {
      expect(await r.desk.tagsInUse()).toEqual([]);
      await r.desk.setNotes('copart:1', '', 'flood,export');
      await r.desk.setNotes('copart:2', 'n', 'export, Zebra ,,apple');
      await r.desk.setNotes('iaai:3', 'only notes', '');
      expect(await r.desk.tagsInUse()).toEqual(['apple', 'export', 'flood', 'Zebra']);
    });

    it('keeps shipping prices per port (the newest wins, a price without a port is dropped), by port', async () => {
      expect(await r.desk.shipping('copart:1')).toEqual([]);
      await r.desk.keepShipping(
        'copart:1',
        [price('Savannah', 1200.5), price(null, 99), price('bayonne', null, null), price('Newark', 800)],
        1_000,
      );
      expect(await r.desk.shipping('copart:1')).toEqual([
        { port: 'Newark', price_usd: 800, currency: 'USD', fetched_at: 1_000 },
        { port: 'Savannah', price_usd: 1200.5, currency: 'USD', fetched_at: 1_000 },
        { port: 'bayonne', price_usd: null, currency: null, fetched_at: 1_000 },
      ]);
      await r.desk.keepShipping('copart:1', [price('Newark', 850, 'EUR'), price('Newark', 900)], 2_000);
      await r.desk.keepShipping('copart:2', [price('Newark', 1)], 2_000);
      await r.desk.keepShipping('copart:2', [], 3_000);
      expect(await r.desk.shipping('copart:1')).toEqual([
        { port: 'Newark', price_usd: 900, currency: 'USD', fetched_at: 2_000 },
        { port: 'Savannah', price_usd: 1200.5, currency: 'USD', fetched_at: 1_000 },
        { port: 'bayonne', price_usd: null, currency: null, fetched_at: 1_000 },
      ]);
      expect(await r.desk.shipping('copart:2')).toEqual([
        { port: 'Newark', price_usd: 1, currency: 'USD', fetched_at: 2_000 },
      ]);
    });

    it('joins the store transaction: a throw undoes notes and every shipping price of it', async () => {
      await expect(
        r.transaction(async () => {
          await r.desk.setNotes('copart:1', 'n', 't');
          await r.desk.keepShipping('copart:1', [price('Newark', 800), price('Savannah', 900)], 1_000);
          expect(await r.desk.shipping('copart:1')).toHaveLength(2);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await r.desk.notes('copart:1')).toEqual({ notes: '', tags: '' });
      expect(await r.desk.shipping('copart:1')).toEqual([]);
      expect(await r.desk.tagsInUse()).toEqual([]);
    });
  });
}
