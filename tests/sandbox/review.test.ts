import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_HEADERS, startHarness, type Harness } from './harness';

// Mismatches between the sandbox and the specification found in review (the spec, the video spec and
// docs/service-contract.md), one test each.

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('every service response goes through the key check and carries the quota headers', () => {
  // A path that does not decode (bad percent-encoding) or a very long path identifier used to be answered by
  // Fastify itself: no key check (400/414 instead of 401), no quota headers, not the service's error body.
  const bad = ['/vehicles/%E0%A4%A', '/vehicles/%E0%A4%A/history'];
  const videoBase = (): string => `${h.url}/api/v1/youtube`;
  for (const path of bad) {
    it(`${path}: 401 without a key, 400 in the service's envelope with one`, async () => {
      const denied = await h.json(path, { key: null });
      expect(denied.status).toBe(401);
      expect(denied.body).toMatchObject({ ok: false, status: 401 });
      for (const name of QUOTA_HEADERS) expect(denied.res.headers.get(name), name).not.toBeNull();
      const used = Number((await h.get('/usage')).headers.get('x-subscription-used'));
      const ok = await h.json(path);
      expect(ok.status).toBe(400);
      expect(ok.body).toMatchObject({ ok: false, status: 400, message: expect.any(String) });
      for (const name of QUOTA_HEADERS) expect(ok.res.headers.get(name), name).not.toBeNull();
      expect(Number(ok.res.headers.get('x-subscription-used'))).toBe(used + 1);
    });
  }
  it('the same on the video-platform paths', async () => {
    const denied = await h.json('/channel/%E0%A4%A', { key: null, base: videoBase() });
    expect(denied.status).toBe(401);
    for (const name of QUOTA_HEADERS) expect(denied.res.headers.get(name), name).not.toBeNull();
  });
  it('a long path identifier is validated like any other, not refused by the router', async () => {
    const { status, body, res } = await h.json(`/vehicles/${'x'.repeat(600)}`);
    expect(status).toBe(422);
    expect(body['errors']).toEqual({ vin: ['The vin field must be 17 characters.'] });
    for (const name of QUOTA_HEADERS) expect(res.headers.get(name), name).not.toBeNull();
    expect((await h.json(`/vehicles/${'x'.repeat(600)}`, { key: null })).status).toBe(401);
  });
});

describe('GET /vehicles/{slugVin}: 422 only for an identifier that is not 17 characters long', () => {
  it('a 17-character identifier that names no vehicle is 404, not "must be 17 characters"', async () => {
    for (const id of ['IIIIIIIIIIIIIIIII', 'OQ345678901234567']) {
      for (const sub of ['', '/history', '/related', '/shipping']) {
        const { status, body } = await h.json(`/vehicles/${id}${sub}`);
        expect(status, `${id}${sub}: ${JSON.stringify(body)}`).toBe(404);
        expect(body).toMatchObject({ ok: false, status: 404 });
      }
    }
    expect((await h.json('/vehicles/WAUC4CF57JA03573')).status).toBe(422);
  });
});

describe('Vehicle.location.display is the city with the state code (spec "VehicleLocation")', () => {
  it('for yards whose name is not the city name too', async () => {
    const m = h.sb.market;
    const lots = m.sorted.filter((l) => l.subStatus === 'Open' && l.facility.name !== l.facility.city);
    expect(lots.length).toBeGreaterThan(0);
    for (const lot of lots.slice(0, 10)) {
      const rec = (await h.json(`/vehicles/${lot.lotNumber}`)).body['data'] as Rec;
      expect(rec['location']['display']).toBe(`${lot.facility.city} (${lot.facility.state})`);
    }
  });
});

describe('engine size and cylinder filters do not match records that show no value', () => {
  // Electric vehicles carry engine.size_l null and cylinders null; "engine_size_to=3" or "cylinders=0" matched them.
  it('engine_size_to keeps only records with a known engine size within the bound', async () => {
    const rows = (await h.json('/vehicles?per_page=20&engine_size_to=3&fuel_type=Electric')).body[
      'data'
    ] as Rec[];
    expect(rows).toEqual([]);
    const some = (await h.json('/vehicles?per_page=20&engine_size_to=3')).body['data'] as Rec[];
    expect(some.length).toBeGreaterThan(0);
    for (const r of some) {
      // The real shape's size_l is a string such as "3.0" (docs/service-contract.md "Records").
      expect(r['vehicle_specs']['engine']['size_l']).toMatch(/^\d+\.\d$/);
      expect(Number(r['vehicle_specs']['engine']['size_l'])).toBeLessThanOrEqual(3);
    }
  });
  it('cylinders never matches a record whose cylinders is null', async () => {
    expect((await h.json('/vehicles?per_page=20&cylinders=0')).body['data']).toEqual([]);
    const ev = (await h.json('/vehicles?per_page=20&fuel_type=Electric')).body['data'] as Rec[];
    expect(ev.length).toBeGreaterThan(0);
    // The real shape shows no cylinder count outside the IAAI raw details: an electric engine has no size or layout.
    expect(
      ev.every(
        (r) =>
          r['vehicle_specs']['engine']['size_l'] === null && r['vehicle_specs']['engine']['layout'] === null,
      ),
    ).toBe(true);
    const spec = await startHarness({ shape: 'spec' });
    try {
      expect((await spec.json('/vehicles?per_page=20&cylinders=0')).body['data']).toEqual([]);
      const specEv = (await spec.json('/vehicles?per_page=20&fuel_type=Electric')).body['data'] as Rec[];
      expect(specEv.length).toBeGreaterThan(0);
      expect(specEv.every((r) => r['vehicle_specs']['cylinders'] === null)).toBe(true);
    } finally {
      await spec.close();
    }
  });
});
