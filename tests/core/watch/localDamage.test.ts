import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../src/shared/ipc/errors';
import { SEARCH_ENUMS } from '../../../src/shared/vehicleParams';
import { coresPerTest, type TestCore } from '../../helpers/core';
import type { FakeClock } from '../../helpers/fakeClock';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// Damage the service cannot search ("Front end": the specification's damage takes nine values only) is a local
// refinement: never sent, and a saved search with it calls new matches and alerts only for lots whose primary damage
// it is (src/shared/localRefinements, docs/architecture.md "Local refinements"). Core on a real SQLite file against
// the sandbox over HTTP, on fake time; the sandbox's market lists new lots over time and its records are the truth.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
const PARAMS = { make: 'KIA' };
let sb: Sandbox;
/** The path and query of every request the sandbox received, in order. */
const sent: string[] = [];
sandboxPerFile({ seed: 5, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 }, (started) => {
  sb = started;
  sb.app.server.on('request', (req: { url?: string }) => sent.push(req.url ?? ''));
});
const startCore = coresPerTest();

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

function advance(clock: FakeClock, ms: number): void {
  clock.advance(ms);
  sb.advance(ms);
}

/** Lot numbers of the new-match alerts so far (the newest 500: more than this test raises). */
async function newMatchLots(call: TestCore['call']): Promise<string[]> {
  const page = value(
    await call<{ alerts: { kind: string; lot_key: string | null }[] }>('alerts.list', { limit: 500 }),
  );
  return page.alerts
    .filter((a) => a.kind === 'new_match' && a.lot_key)
    .map((a) => a.lot_key!.slice(a.lot_key!.indexOf(':') + 1));
}

/** Every `damage` value the sandbox was sent on GET /vehicles since request `from`. */
function damageSent(from: number): string[] {
  return sent
    .slice(from)
    .filter((u) => /\/vehicles(\?|$)/.test(u))
    .flatMap((u) => new URL(u, 'http://x').searchParams.getAll('damage'));
}

const damageOf = (lotNumber: string) => sb.market.lots.find((l) => l.lotNumber === lotNumber)?.damage;

describe('damage the service cannot search, refined by Lotwatch', () => {
  it('a saved search with "Front end" alerts only front-end lots, and never sends that damage', async () => {
    const { clock, call, dbPath } = await startCore({ sandbox: sb });
    const from = sent.length;
    const t0 = sb.marketNow();
    const s = value(
      await call<{ id: number; params: Record<string, unknown>; refine: unknown }>('searches.create', {
        name: 'Front-end Kias',
        params: PARAMS,
        refine: { damage: ['Front end'] },
        schedule: '0 * * * *',
        max_pages: 50,
      }),
    );
    expect(s.refine).toEqual({ damage: ['Front end'] });
    expect(s.params).toEqual(PARAMS);
    // The baseline, then a day of hourly runs while the market lists new lots.
    expect(value(await call('searches.runNow', { id: s.id }))).toMatchObject({ status: 'ok' });
    for (let h = 0; h < 36; h++) {
      advance(clock, HOUR);
      value(await call('searches.runNow', { id: s.id }));
    }
    const alerted = await newMatchLots(call);
    // Lots of the search listed after it started: front-end ones and others, so the filter had work to do.
    const listed = sb.market.lots.filter((l) => l.v.spec.make === PARAMS.make && l.createdAt > t0);
    expect(listed.some((l) => l.damage === 'Front end')).toBe(true);
    expect(listed.some((l) => l.damage !== 'Front end')).toBe(true);
    expect(alerted.length).toBeGreaterThan(0);
    expect(alerted.map(damageOf).filter((d) => d !== 'Front end')).toEqual([]);

    // Members are the front-end lots only; the other lots read are stored as observations all the same.
    const db = new BetterSqlite3(dbPath, { readonly: true });
    try {
      const members = db.prepare('SELECT lot_key FROM search_members WHERE search_id = ?').all(s.id) as {
        lot_key: string;
      }[];
      expect(members.length).toBeGreaterThan(0);
      const memberDamage = members.map((m) => damageOf(m.lot_key.slice(m.lot_key.indexOf(':') + 1)));
      expect(memberDamage.filter((d) => d !== 'Front end')).toEqual([]);
      const other = listed.find((l) => l.damage !== 'Front end' && l.subStatus === 'Open');
      const stored = db
        .prepare("SELECT count(*) AS n FROM lots WHERE lot_key LIKE '%:' || ?")
        .get(other!.lotNumber);
      expect(stored).toEqual({ n: 1 });
    } finally {
      db.close();
    }

    // Requests were sent, and none carried a damage value the specification does not list (here: none at all).
    expect(sent.length).toBeGreaterThan(from);
    const damages = damageSent(from);
    expect(damages.filter((d) => !(SEARCH_ENUMS.damage as readonly string[]).includes(d))).toEqual([]);
    expect(damages).toEqual([]);
  });

  it('a manual search with a local damage answers only lots with it, says how many it left out, sends none', async () => {
    const { call } = await startCore({ sandbox: sb });
    const from = sent.length;
    const r = value(
      await call<{ lots: { lot_number: string; damage: string | null }[]; refined_out?: number }>(
        'vehicles.search',
        { params: PARAMS, refine: { damage: ['front END'] } },
      ),
    );
    expect(r.lots.length + (r.refined_out ?? 0)).toBe(20);
    expect(r.refined_out).toBeGreaterThan(0);
    expect(r.lots.map((l) => l.damage).filter((d) => d !== 'Front end')).toEqual([]);
    expect(damageSent(from)).toEqual([]);
  });

  it('a saved search with only specification damage sends it, with no refinement', async () => {
    const { call } = await startCore({ sandbox: sb });
    const from = sent.length;
    const s = value(
      await call<{ id: number; refine: unknown }>('searches.create', {
        name: 'Hail Kias',
        params: { ...PARAMS, damage: ['Hail'] },
        schedule: '0 * * * *',
        max_pages: 1,
      }),
    );
    expect(s.refine).toEqual({});
    value(await call('searches.runNow', { id: s.id }));
    expect(damageSent(from)).toEqual(['Hail']);
  });

  it('a damage the specification does not list is refused as a parameter, before any request', async () => {
    const { call } = await startCore({ sandbox: sb });
    const from = sent.length;
    const r = await call('searches.create', {
      name: 'Wrong',
      params: { ...PARAMS, damage: ['Front end'] },
      schedule: '0 * * * *',
    });
    expect(r.ok).toBe(false);
    expect(sent.slice(from).filter((u) => /\/vehicles(\?|$)/.test(u))).toEqual([]);
  });
});
