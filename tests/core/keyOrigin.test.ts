import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCore, type Core } from '../helpers/core';
import { keyedService } from '../helpers/sandbox';
import { tempDir } from '../helpers/tmp';

// The API key is bound to the origin (scheme, host, port) it was entered for: another service URL does not get it.

const KEY = 'sk_live_entered_for_a_0001';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A local service over real HTTP that accepts KEY, with a log of the X-API-Key of every request it received. */
async function service(): Promise<{ url: string; baseUrl: string; keys: unknown[] }> {
  const { sb, keys } = await keyedService(KEY, 200);
  cleanups.push(() => sb.dispose());
  return { url: sb.url!, baseUrl: sb.baseUrl!, keys };
}

/** A core over `dir` (a real SQLite file and key file), restartable on the same folder. */
function coreOn(dir: string): Core {
  const { core } = makeCore({ dir, autoStart: false });
  cleanups.push(() => core.dispose());
  return core;
}

function folder(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('the API key and the service URL', () => {
  it('is not sent to another origin: that URL reads as "no key"; the origin it was entered for uses it again', async () => {
    const a = await service();
    const b = await service();
    const core = coreOn(folder());
    await core.ready;
    await core.call('settings.update', { serviceUrl: a.baseUrl });
    await core.call('key.set', { key: KEY });
    await core.call('settings.update', { demoMode: false });
    expect(await core.call('key.test', undefined)).toMatchObject({ ok: true });
    expect(a.keys).toContain(KEY);

    // Another origin (same host, another port): the key stays stored but is not sent; Settings asks for a key.
    await core.call('settings.update', { serviceUrl: b.baseUrl });
    expect(await core.call('status.get', undefined)).toMatchObject({
      mode: 'live',
      running: false,
      key: { set: false, stored_for: a.url },
    });
    expect(await core.call('key.test', undefined)).toEqual({ ok: false, usage: null });
    await expect(core.call('vehicles.search', { params: {} })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await core.call('searches.create', { name: 'x', params: {} });
    await core.call('searches.runNow', { id: 1 }).catch(() => undefined);
    await core.engine.runDue();
    await core.engine.idle();
    expect(b.keys.filter((k) => k === KEY)).toEqual([]);
    expect(b.keys).toEqual([]);

    // Back to the origin the key was entered for: it is used again, without asking.
    await core.call('settings.update', { serviceUrl: a.baseUrl });
    expect(await core.call('status.get', undefined)).toMatchObject({
      running: true,
      key: { set: true, stored_for: null },
    });
    // Another path on the same origin keeps the key.
    await core.call('settings.update', { serviceUrl: `${a.url}/v2/vehicle-auction` });
    expect(await core.call('status.get', undefined)).toMatchObject({ running: true, key: { set: true } });
    await core.call('settings.update', { serviceUrl: a.baseUrl });
    expect(await core.call('key.test', undefined)).toMatchObject({ ok: true });

    // A key saved while B is the service URL is B's; A no longer gets a key.
    await core.call('settings.update', { serviceUrl: b.baseUrl });
    await core.call('key.set', { key: KEY });
    expect(await core.call('key.test', undefined)).toMatchObject({ ok: true });
    expect(b.keys).toContain(KEY);
    const sentToA = a.keys.length;
    await core.call('settings.update', { serviceUrl: a.baseUrl });
    expect(await core.call('status.get', undefined)).toMatchObject({
      key: { set: false, stored_for: b.url },
    });
    expect(await core.call('key.test', undefined)).toEqual({ ok: false, usage: null });
    expect(a.keys).toHaveLength(sentToA);

    // Clearing forgets the key and its origin.
    await core.call('key.clear', undefined);
    expect(await core.call('status.get', undefined)).toMatchObject({ key: { set: false, stored_for: null } });
  }, 30_000);

  it('keeps the binding across a restart, and binds a key stored before (no origin recorded) to the current URL', async () => {
    const a = await service();
    const b = await service();
    const dir = folder();
    let core = coreOn(dir);
    await core.ready;
    await core.call('settings.update', { serviceUrl: a.baseUrl, demoMode: false });
    await core.call('key.set', { key: KEY });
    await core.dispose();

    // A key as an older Lotwatch stored it: no origin beside it.
    const raw = new Database(join(dir, 'lotwatch.sqlite'));
    const names = () =>
      (raw.prepare('SELECT name FROM secrets ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    expect(names()).toEqual(['api_key', 'api_key_origin']);
    raw.prepare("DELETE FROM secrets WHERE name = 'api_key_origin'").run();
    expect(names()).toEqual(['api_key']);

    core = coreOn(dir);
    await core.ready;
    // Bound, on first start, to the URL it was used with, and recorded.
    expect(names()).toEqual(['api_key', 'api_key_origin']);
    expect(await core.call('status.get', undefined)).toMatchObject({ key: { set: true } });
    expect(await core.call('key.test', undefined)).toMatchObject({ ok: true });
    await core.call('settings.update', { serviceUrl: b.baseUrl });
    await core.dispose();
    raw.close();

    // After a restart, still A's key: B gets nothing.
    core = coreOn(dir);
    await core.ready;
    expect(await core.call('status.get', undefined)).toMatchObject({
      running: false,
      key: { set: false, stored_for: a.url },
    });
    expect(await core.call('key.test', undefined)).toEqual({ ok: false, usage: null });
    expect(b.keys).toEqual([]);
  }, 30_000);
});
