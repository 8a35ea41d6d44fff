import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import { DeskService } from '../../../src/core/desk/service';
import type { MarketPage } from '../../../src/core/desk/market';
import { DeskSettingsSchema } from '../../../src/shared/desk';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { realOpenRecord } from '../api/fixtures/realRecords';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { storesPerTest } from '../../helpers/store';

// The market comparables of watched lots run by themselves at low value: each band at most once a day, only when
// the budget says there is room beyond the planned polls (WatchEngine.spare), every 6 hours on the injected clock.

const stores = storesPerTest();
const startCore = coresPerTest();

describe('market comparables of watched lots', () => {
  it('asks each watched band once a day, only when the budget has room', async () => {
    const { s } = stores();
    const clock = new FakeClock();
    await s.lots.observe(normalizeVehicle(realOpenRecord(), []), clock.now(), 'test');
    await s.lots.observe(
      normalizeVehicle({ ...realOpenRecord(), lot_number: '45139006', vin: 'X' }, []),
      1,
      'test',
    );
    for (const key of ['iaai:45139005', 'iaai:45139006'])
      await s.watches.insertWatch(
        {
          kind: 'lot',
          vin: null,
          lot_key: key,
          label: key,
          rules: AlertRulesSchema.parse({}),
          is_example: false,
        },
        0,
      );
    const asked: Record<string, unknown>[] = [];
    let room = false;
    const desk = new DeskService({
      store: s,
      clock,
      settings: () => DeskSettingsSchema.parse({}),
      searchPage: async (params): Promise<MarketPage> => {
        asked.push(params);
        return { keys: [], ended: 0, next_cursor: null };
      },
      source: () => 'demo',
      calendar: null,
      spare: () => room,
      libraryKeys: () => Promise.resolve([]),
    });
    expect(await desk.watchedMarketPass()).toEqual({ bands: 0, requests: 0 });
    room = true;
    // Two watched lots of one band (IAAI, AUDI S5, 2017-2019): one request.
    expect(await desk.watchedMarketPass()).toEqual({ bands: 1, requests: 1 });
    expect(asked).toEqual([
      {
        platform: 'iaai',
        make: 'AUDI',
        model: 'S5',
        year_from: 2017,
        year_to: 2019,
        lot_sub_status: 'Ended',
        per_page: 20,
      },
    ]);
    expect(await desk.watchedMarketPass()).toEqual({ bands: 0, requests: 0 });
    // By itself on the clock: 30 minutes after start, then every 6 hours; the band is fresh again after a day.
    desk.start();
    const flush = () => new Promise<void>((r) => setImmediate(r)); // lets the pass's promise chain settle
    clock.advance(30 * 60_000);
    await flush();
    expect(asked).toHaveLength(1);
    for (let i = 0; i < 4; i++) {
      clock.advance(6 * 3_600_000);
      await flush();
    }
    await desk.dispose();
    expect(asked).toHaveLength(2);
  });

  it('the engine has room for low-value requests only beyond the planned polls, within the daily limit', async () => {
    const made = await startCore({ autoStart: false });
    await made.value('settings.update', { requestsPerDay: 3 });
    expect(made.core.engine.spare(2)).toBe(true);
    expect(made.core.engine.spare(4)).toBe(false);
  });
});
