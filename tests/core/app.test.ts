import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { LotwatchError } from '../../src/core/errors';
import { FileSecretBox } from '../../src/core/secrets';
import type { ContractEvent } from '../../src/shared/ipc/contract';
import { makeCore } from '../helpers/core';
import { tempDir } from '../helpers/tmp';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('createCore', () => {
  it('reports app info for the headless shell in Demo mode', async () => {
    const t = makeCore();
    cleanups.push(t.cleanup);
    const r = await t.core.invoke('app.info', undefined);
    expect(r).toMatchObject({
      ok: true,
      value: {
        name: 'Lotwatch',
        shell: 'headless',
        mode: 'demo',
        dbPath: t.dbPath,
        schemaVersion: MIGRATIONS.at(-1)?.version,
      },
    });
  });

  it('round-trips settings, emits settings.changed, and switches mode', async () => {
    const t = makeCore();
    cleanups.push(t.cleanup);
    const seen: ContractEvent[] = [];
    t.core.on((e) => seen.push(e));
    const r = await t.core.invoke('settings.update', { theme: 'dark', demoMode: false });
    expect(r).toMatchObject({ ok: true, value: { theme: 'dark', demoMode: false } });
    // Demo mode off and no key: nothing is watched any more, and the state of watching says so at once.
    expect(seen).toEqual([
      { name: 'watching.changed', payload: { kind: 'no_key' } },
      { name: 'settings.changed', payload: expect.objectContaining({ theme: 'dark' }) },
    ]);
    expect(await t.core.invoke('status.get', undefined)).toMatchObject({
      value: { watching: { kind: 'no_key' } },
    });
    expect(await t.core.invoke('settings.get', null)).toMatchObject({ value: { theme: 'dark' } });
    expect(await t.core.invoke('app.info', undefined)).toMatchObject({ value: { mode: 'live' } });
  });

  it('saves nothing when the input is refused', async () => {
    const t = makeCore();
    cleanups.push(t.cleanup);
    const r = await t.core.invoke('settings.update', { theme: 'dark', serviceUrl: 'not a url' });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { serviceUrl: expect.any(Array) } },
    });
    expect(await t.core.invoke('settings.get', undefined)).toMatchObject({ value: { theme: 'system' } });
  });

  it('calls a method in process, typed from the contract, and throws a LotwatchError for an error result', async () => {
    const t = makeCore();
    cleanups.push(t.cleanup);
    const info = await t.core.call('app.info', undefined);
    expect(info.schemaVersion).toBe(MIGRATIONS.at(-1)?.version);
    const settings = await t.core.call('settings.update', { theme: 'dark' });
    expect(settings.theme).toBe('dark');
    const refused = t.core.call('settings.update', { serviceUrl: 'not a url' });
    await expect(refused).rejects.toBeInstanceOf(LotwatchError);
    await expect(refused).rejects.toMatchObject({
      code: 'bad_input',
      retryable: false,
      fields: { serviceUrl: expect.any(Array) },
    });
    await expect(t.core.call('lots.get', { lot_key: 'copart:1' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps working when a listener throws', async () => {
    const t = makeCore();
    cleanups.push(t.cleanup);
    t.core.on(() => {
      throw new Error('bad listener');
    });
    expect(await t.core.invoke('settings.update', { theme: 'light' })).toMatchObject({ ok: true });
  });

  it('dispose waits for work in flight, closes the database, and refuses later calls', async () => {
    const t = makeCore();
    const pending = t.core.invoke('settings.update', { theme: 'light' });
    await t.core.dispose();
    expect(await pending).toMatchObject({ ok: true });
    expect(await t.core.invoke('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
    await t.core.dispose(); // idempotent
    await t.cleanup();
  });
});

describe('FileSecretBox', () => {
  it('round-trips a secret, keeps its key file private, and never stores the plain text', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const box = new FileSecretBox(join(t.dir, 'secret.key'));
    const c = box.encrypt('sk-live-123456');
    expect(c.toString('utf8')).not.toContain('sk-live-123456');
    expect(box.decrypt(c)).toBe('sk-live-123456');
    expect(statSync(join(t.dir, 'secret.key')).mode & 0o777).toBe(0o600);
    // A second box over the same file reads the same key.
    expect(new FileSecretBox(join(t.dir, 'secret.key')).decrypt(c)).toBe('sk-live-123456');
  });

  it('refuses a tampered ciphertext with a typed error', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const box = new FileSecretBox(join(t.dir, 'secret.key'));
    const c = box.encrypt('abc');
    c.writeUInt8(c.readUInt8(c.length - 1) ^ 0xff, c.length - 1);
    expect(() => box.decrypt(c)).toThrow(/could not be decrypted/);
  });
});
