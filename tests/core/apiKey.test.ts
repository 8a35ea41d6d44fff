import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/core/apiKey';
import { BadInputError } from '../../src/core/errors';
import { FileSecretBox } from '../../src/core/secrets';
import { FakeClock } from '../helpers/fakeClock';
import { recordingLog } from '../helpers/log';
import { storesPerTest, type TestStore } from '../helpers/store';
import { tempDir } from '../helpers/tmp';

// The API key as core keeps it (docs/architecture.md "The key never leaves core"): read from the store once at start
// (`load`), answered from memory afterwards, written through the store's async repositories. Real SQLite files, real
// key files.

const openStore = storesPerTest();
const KEY = 'sk_live_loaded_once_0042';
const A = 'https://a.example.com:8443/api/v1';
const B = 'https://b.example.com/api/v1';

/** A key file in a temp folder of this test's data file (the folder is removed with the store's). */
function box(t: TestStore, name = 'secret.key'): FileSecretBox {
  return new FileSecretBox(join(t.path, '..', name));
}

/** An ApiKeyStore over `t`'s store as core builds it, with the service URL read from `url()`. */
function keyStore(t: TestStore, url: () => string, secrets = box(t), log = recordingLog()) {
  return new ApiKeyStore({ store: t.s, secrets, clock: new FakeClock(), log, serviceUrl: url });
}

describe('ApiKeyStore', () => {
  it('reads nothing until loaded, and a fresh data file has no key', async () => {
    const t = openStore();
    const keys = keyStore(t, () => A);
    await keys.load();
    expect(keys.keyFor(A)).toBeUndefined();
    expect(keys.storedForOther(B)).toBeNull();
  });

  it('stores the key bound to the service URL’s origin; a restart loads both, and another origin gets nothing', async () => {
    const t = openStore();
    const first = keyStore(t, () => A);
    await first.load();
    await first.set(KEY);
    expect(first.keyFor(A)).toBe(KEY);

    const restarted = keyStore(t, () => B);
    expect(restarted.keyFor(A)).toBeUndefined(); // not loaded yet: nothing is known
    await restarted.load();
    expect(restarted.keyFor(A)).toBe(KEY);
    expect(restarted.keyFor('https://a.example.com:8443/other')).toBe(KEY);
    expect(restarted.keyFor(B)).toBeUndefined();
    expect(restarted.storedForOther(B)).toBe('https://a.example.com:8443');
  });

  it('binds a key stored before keys were bound to the current service URL, once, in the store', async () => {
    const t = openStore();
    const secrets = box(t);
    t.s.sync.requests.setSecret('api_key', secrets.encrypt(KEY), 1);
    const keys = keyStore(t, () => A, secrets);
    await keys.load();
    expect(keys.keyFor(A)).toBe(KEY);
    const bound = t.s.sync.requests.getSecret('api_key_origin');
    expect(bound && secrets.decrypt(bound)).toBe('https://a.example.com:8443');
    // The binding stays where it was made: a later start on another URL does not move it.
    const later = keyStore(t, () => B, secrets);
    await later.load();
    expect(later.keyFor(B)).toBeUndefined();
    expect(later.keyFor(A)).toBe(KEY);
  });

  it('forgets the key and its origin together', async () => {
    const t = openStore();
    const keys = keyStore(t, () => A);
    await keys.load();
    await keys.set(KEY);
    await keys.set(null);
    expect(keys.keyFor(A)).toBeUndefined();
    expect(t.s.sync.requests.getSecret('api_key')).toBeNull();
    expect(t.s.sync.requests.getSecret('api_key_origin')).toBeNull();
    const restarted = keyStore(t, () => A);
    await restarted.load();
    expect(restarted.keyFor(A)).toBeUndefined();
  });

  it('refuses a key for a service URL that is not valid, storing nothing', async () => {
    const t = openStore();
    const keys = keyStore(t, () => 'not a url');
    await keys.load();
    await expect(keys.set(KEY)).rejects.toBeInstanceOf(BadInputError);
    expect(t.s.sync.requests.getSecret('api_key')).toBeNull();
    expect(keys.keyFor('not a url')).toBeUndefined();
  });

  it('keeps the key it had when the store refuses the write', async () => {
    const t = openStore();
    const keys = keyStore(t, () => A);
    await keys.load();
    await keys.set(KEY);
    t.db.pragma('query_only = ON');
    await expect(keys.set('sk_live_never_stored_0007')).rejects.toThrow();
    await expect(keys.set(null)).rejects.toThrow();
    t.db.pragma('query_only = OFF');
    expect(keys.keyFor(A)).toBe(KEY);
    const restarted = keyStore(t, () => A);
    await restarted.load();
    expect(restarted.keyFor(A)).toBe(KEY);
  });

  it('loads a key it cannot decrypt as no key, and says so in the log without the key', async () => {
    const t = openStore();
    const first = keyStore(t, () => A);
    await first.load();
    await first.set(KEY);
    const log = recordingLog();
    const other = tempDir();
    try {
      const keys = keyStore(t, () => A, new FileSecretBox(join(other.dir, 'secret.key')), log);
      await keys.load();
      expect(keys.keyFor(A)).toBeUndefined();
      expect(log.lines.map((l) => l.msg)).toEqual(['the stored API key could not be read; set it again']);
      expect(JSON.stringify(log.lines)).not.toContain(KEY);
    } finally {
      other.cleanup();
    }
  });
});
