import { describe, expect, it } from 'vitest';
import type { Result } from '../../../src/shared/ipc/errors';
import type { Lot } from '../../../src/sandbox/market';
import { exportOf } from '../../../src/sandbox/realShape';
import { coresPerTest, type TestCore } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// Titles that block export, end to end: core against the sandbox over real HTTP in the real dialect
// (`sale_document.export`, the document's name), a real SQLite store, fake time. The sandbox's market is the ground
// truth of which lots are blocked: a certificate of destruction, parts-only or non-repairable papers, or a document
// it marks not exportable (src/sandbox/realShape.ts exportOf).
const SEED = 5;
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
let sb: Sandbox;
sandboxPerFile(
  { seed: SEED, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

const SCRAP = new Set(['CERTIFICATE OF DESTRUCTION', 'PARTS ONLY', 'NON-REPAIRABLE']);
/** Whether the market's lot is blocked, by the market's own facts (not Lotwatch's reading of them). */
const blocked = (l: Lot): boolean => SCRAP.has(l.docName) || !exportOf(SEED, l);
const key = (l: Lot) => `${l.platform}:${l.lotNumber}`;

/** An open lot of the market with a sale still ahead, matching `pick`. */
function openLot(pick: (l: Lot) => boolean): Lot {
  const now = sb.marketNow();
  const l = sb.market.sorted.find((x) => x.subStatus === 'Open' && x.auctionAt > now + 6 * HOUR && pick(x));
  if (!l) throw new Error('no such lot in the market');
  return l;
}

interface AlertRow {
  kind: string;
  lot_key: string | null;
  source: string;
  body: string;
  lot_export_block: { reason: string; label: string } | null;
}

async function allAlerts(call: TestCore['call']): Promise<AlertRow[]> {
  return value(await call<{ alerts: AlertRow[] }>('alerts.list', { limit: 500 })).alerts;
}

describe('titles that block export, against the sandbox in the real dialect', () => {
  it('a certificate-of-destruction lot and an export-false lot are marked in search results, the watchlist and alerts', async () => {
    const { call, clock } = await startCore({ sandbox: sb });
    const cod = openLot((l) => l.docName === 'CERTIFICATE OF DESTRUCTION');
    const notExportable = openLot((l) => l.docName === 'SALVAGE' && !exportOf(SEED, l));
    const fine = openLot((l) => l.docName === 'SALVAGE' && exportOf(SEED, l));

    // Search results: every certificate of destruction marked; salvage lots marked exactly where the market says
    // their document does not export.
    type Row = { lot_key: string; export_block: { reason: string; label: string } | null };
    const search = async (params: Record<string, unknown>) =>
      value(await call<{ lots: Row[] }>('vehicles.search', { params })).lots;
    const cods = await search({ sale_document_type: 'certificate_of_destruction' });
    expect(cods.length).toBeGreaterThan(0);
    for (const r of cods)
      expect(r.export_block).toMatchObject({ reason: 'destruction', label: 'Certificate of destruction' });
    const salvage = await search({ sale_document_type: 'salvage' });
    const byKey = new Map(sb.market.lots.map((l) => [key(l), l]));
    expect(salvage.map((r) => r.export_block?.reason ?? null)).toEqual(
      salvage.map((r) => (exportOf(SEED, byKey.get(r.lot_key)!) ? null : 'export_false')),
    );
    expect(salvage.some((r) => r.export_block !== null)).toBe(true);

    // The watchlist, with alerts when a lot's sale moves.
    for (const l of [cod, notExportable, fine])
      value(await call('watchlist.add', { target: l.lotNumber, rules: { kinds: ['rescheduled'] } }));
    const list = value(
      await call<{ lot: { lot_key: string; export_block: { reason: string } | null } | null }[]>(
        'watchlist.list',
      ),
    );
    const markOf = (l: Lot) => list.find((w) => w.lot?.lot_key === key(l))?.lot?.export_block?.reason ?? null;
    expect([markOf(cod), markOf(notExportable), markOf(fine)]).toEqual(['destruction', 'export_false', null]);

    // Alerts: each lot's sale moved by two hours, checked again.
    for (const l of [cod, notExportable, fine])
      sb.market.forceReschedule(l.lotNumber, l.auctionAt + 2 * HOUR);
    clock.advance(HOUR);
    const watches = value(await call<{ id: number }[]>('watchlist.list'));
    for (const w of watches) value(await call('watchlist.checkNow', { id: w.id }));
    const alerts = await allAlerts(call);
    const alertOf = (l: Lot) => alerts.find((a) => a.lot_key === key(l) && a.kind === 'rescheduled');
    expect(alertOf(cod)?.body).toContain('Export blocked: Certificate of destruction');
    expect(alertOf(cod)?.lot_export_block?.reason).toBe('destruction');
    expect(alertOf(notExportable)?.body).toContain('Export blocked: Not exportable');
    expect(alertOf(notExportable)?.lot_export_block?.reason).toBe('export_false');
    expect(alertOf(fine)?.body).not.toContain('Export blocked');
    expect(alertOf(fine)?.lot_export_block).toBeNull();
  });

  it('a saved search with "exportable title" never alerts a blocked lot; the same search without it does', async () => {
    // Two buyers' stores over the same market, hour by hour: the same search, one with the rule.
    const plain = await startCore({ sandbox: sb });
    const only = await startCore({ sandbox: sb });
    const params = { make: 'FORD' };
    const rules = { kinds: ['new_match', 'bid_changed', 'relisted', 'rescheduled'] };
    const create = (c: typeof plain, exportable_only: boolean) =>
      c.call<{ id: number }>('searches.create', {
        name: 'Fords',
        params,
        schedule: '0 * * * *',
        max_pages: 50,
        rules: { ...rules, exportable_only },
      });
    const ids = [value(await create(plain, false)).id, value(await create(only, true)).id];
    for (let h = 0; h < 8; h++) {
      value(await plain.call('searches.runNow', { id: ids[0] }));
      value(await only.call('searches.runNow', { id: ids[1] }));
      plain.clock.advance(HOUR);
      only.clock.advance(HOUR);
      sb.advance(HOUR);
    }
    const byKey = new Map(sb.market.lots.map((l) => [key(l), l]));
    const isBlocked = (a: AlertRow) => blocked(byKey.get(a.lot_key!)!);
    const lotAlerts = async (c: typeof plain) => (await allAlerts(c.call)).filter((a) => a.lot_key !== null);
    // Without the rule, blocked lots alert (the market has them), marked.
    const plainAlerts = await lotAlerts(plain);
    const plainBlocked = plainAlerts.filter(isBlocked);
    expect(plainBlocked.length).toBeGreaterThan(0);
    expect(new Set(plainBlocked.map((a) => a.kind))).toContain('new_match');
    for (const a of plainBlocked) expect(a.body).toContain('Export blocked: ');
    // With it: the other alerts, none of them a blocked lot.
    const kept = await lotAlerts(only);
    expect(kept.filter(isBlocked).map((a) => `${a.kind} ${a.lot_key}`)).toEqual([]);
    expect(kept.map((a) => `${a.kind} ${a.lot_key}`).sort()).toEqual(
      plainAlerts
        .filter((a) => !isBlocked(a))
        .map((a) => `${a.kind} ${a.lot_key}`)
        .sort(),
    );
    for (const a of kept) expect(a.body).not.toContain('Export blocked');
  });
});
