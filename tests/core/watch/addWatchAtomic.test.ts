import { describe, expect, it } from 'vitest';
import type { Vehicle } from '../../../src/shared/vehicle';
import { coreEngines, placesPerTest } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// A watch being added (watchlist.add) and its lot's first state land in one transaction, on the desktop's SQLite file
// and on a team's PostgreSQL database. A watch stored before its lot's state is one the watcher finds with no state:
// due at once (planner.ts nextCheckAt), so a tick in between looked the lot up a second time (a request of the
// buyer's quota), and on PostgreSQL that look-up and the add's own stored the same new lot side by side.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const clock = new FakeClock(START);
let sb: Sandbox;
sandboxPerFile(
  { seed: 13, lots: 3000, startTime: START, now: () => clock.now(), ratePerSecond: 0 },
  (started) => {
    sb = started;
  },
);

for (const engine of coreEngines()) {
  describe.skipIf(engine.skip)(`a watch being added, on ${engine.name}`, () => {
    const place = placesPerTest(engine);

    it("is never seen from another connection without its lot's state", async () => {
      const p = await place();
      const { core, value } = await p.start({ sandbox: sb, clock });
      const side = await p.side();
      // Watches another connection (the watcher's next tick, another of a team's servers) sees with no lot state.
      const stateless: string[] = [];
      const look = async () => {
        for (const w of await side.watches.listWatches())
          if (w.lot_key !== null && (await side.lots.getLotState(w.lot_key)) === null)
            stateless.push(w.lot_key);
      };
      // Looks from outside just before the add stores the lot, by whichever way it stores it.
      let stores = 0;
      for (const m of ['ingest', 'ingestWithin'] as const) {
        const stored = core.engine[m].bind(core.engine);
        core.engine[m] = async (vehicles: Vehicle[], source: string) => {
          stores++;
          await look();
          return stored(vehicles, source);
        };
      }
      const lot = sb.market.sorted.find(
        (l) => l.subStatus === 'Open' && l.auctionAt > START + 24 * 3_600_000,
      )!;
      const w = await value<Record<string, unknown>>('watchlist.add', { target: lot.lotNumber });
      await look();
      expect(stores).toBe(1);
      expect(stateless).toEqual([]);
      expect(w['lot_key']).toBe(`${lot.platform}:${lot.lotNumber}`);
      expect(await side.lots.getLotState(`${lot.platform}:${lot.lotNumber}`)).not.toBeNull();
    });
  });
}
