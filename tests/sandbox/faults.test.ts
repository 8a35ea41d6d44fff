import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ lots: 500 });
});
afterAll(() => h.close());

const setFaults = async (body: unknown): Promise<Response> =>
  fetch(`${h.url}/__sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('faults on demand', () => {
  it('off by default', async () => {
    expect(((await (await fetch(`${h.url}/__sandbox/faults`)).json()) as { data: unknown }).data).toEqual({
      queue: [],
    });
  });
  it('queued faults hit the next requests in order', async () => {
    await setFaults({ queue: ['error_500', 'error_503', 'burst_429', 'non_json', 'html'] });
    const r1 = await h.get('/vehicles');
    expect(r1.status).toBe(500);
    expect(await r1.json()).toEqual({ message: 'Server Error' });
    expect((await h.get('/vehicles')).status).toBe(503);
    const r3 = await h.get('/vehicles');
    expect(r3.status).toBe(429);
    expect(r3.headers.get('retry-after')).toBe('1');
    const r4 = await h.get('/vehicles');
    expect(r4.status).toBe(200);
    await expect(r4.json()).rejects.toThrow();
    const r5 = await h.get('/vehicles');
    expect(r5.status).toBe(502);
    expect(r5.headers.get('content-type')).toMatch(/text\/html/);
    expect((await h.get('/vehicles')).status).toBe(200);
  });
  it('truncated bodies and dropped connections fail at the client', async () => {
    await setFaults({ queue: ['truncated'] });
    await expect(h.get('/vehicles').then((r) => r.text())).rejects.toThrow();
    await setFaults({ queue: ['drop'] });
    await expect(
      request(`${h.base}/vehicles`, { headers: { 'x-api-key': 'lotwatch-demo-key' } }),
    ).rejects.toThrow();
    expect((await h.get('/vehicles')).status).toBe(200);
  });
  it('latency delays responses; rates draw faults reproducibly; pathContains scopes them', async () => {
    await setFaults({ latencyMs: 60 });
    const t0 = performance.now();
    await h.get('/usage');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    await setFaults({ rates: { error_500: 1 }, pathContains: '/locations' });
    expect((await h.get('/locations')).status).toBe(500);
    expect((await h.get('/vehicles')).status).toBe(200);
    await fetch(`${h.url}/__sandbox/faults`, { method: 'DELETE' });
    expect((await h.get('/locations')).status).toBe(200);
  });
  it('502 with the real upstream-failure body, on the next request only', async () => {
    await setFaults({ queue: ['error_502'] });
    const r = await h.get('/vehicles/filters');
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(await r.json()).toEqual({ ok: false, message: 'Vehicle API request failed.' });
    expect(r.headers.get('x-subscription-used')).not.toBeNull();
    expect((await h.get('/vehicles/filters')).status).toBe(200);
    await setFaults({ rates: { error_502: 1 }, pathContains: '/usage' });
    expect((await h.get('/usage')).status).toBe(502);
    expect((await h.get('/vehicles')).status).toBe(200);
    await fetch(`${h.url}/__sandbox/faults`, { method: 'DELETE' });
  });
  it('the real shape is the default; on a spec-shape sandbox the drift setting brings it back', async () => {
    expect(
      ((await h.json('/vehicles?per_page=1')).body['data'] as Record<string, unknown>[])[0]!['odometer'],
    ).toMatchObject({ mi: expect.any(Number) });
    const s = await startHarness({ lots: 500, shape: 'spec' });
    try {
      const put = (body: unknown): Promise<Response> =>
        fetch(`${s.url}/__sandbox/faults`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect(
        typeof ((await s.json('/vehicles?per_page=1')).body['data'] as Record<string, unknown>[])[0]![
          'odometer'
        ],
      ).toBe('number');
      await put({ drift: true });
      const rec = ((await s.json('/vehicles?per_page=1')).body['data'] as Record<string, unknown>[])[0]!;
      expect(rec['odometer']).toMatchObject({ mi: expect.any(Number), km: expect.any(Number) });
      expect(rec['auction']).toHaveProperty('countdown');
      expect(rec['media']).toHaveProperty('items');
      const ended = s.sb.market.lots.find((l) => l.subStatus === 'Ended')!;
      const hist = (await s.json(`/vehicles/${ended.v.vin}/history`)).body['data'] as Record<string, unknown>;
      expect(hist).toHaveProperty('vehicle');
      expect(Array.isArray(hist['history'])).toBe(true);
      await put({ drift: true, pathContains: '/history' });
      expect(
        typeof ((await s.json('/vehicles?per_page=1')).body['data'] as Record<string, unknown>[])[0]![
          'odometer'
        ],
      ).toBe('number');
      await fetch(`${s.url}/__sandbox/faults`, { method: 'DELETE' });
      expect(
        typeof ((await s.json('/vehicles?per_page=1')).body['data'] as Record<string, unknown>[])[0]![
          'odometer'
        ],
      ).toBe('number');
    } finally {
      await s.close();
    }
  });
  it('bad fault settings are refused with 422', async () => {
    expect((await setFaults({ queue: ['meteor'] })).status).toBe(422);
    expect((await setFaults({ rates: { error_502: 2 } })).status).toBe(422);
  });
});
