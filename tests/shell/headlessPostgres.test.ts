import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactedUrl } from '../../src/core/db/target';
import { silentLogger } from '../../src/core/log';
import { startHeadless } from '../../src/headless/start';
import { pgAvailable, testDatabase } from '../helpers/postgres';
import { shellFolders } from './shellFolders';
import { MIGRATIONS } from '../../src/core/db/migrations';

// The headless shell on a team's PostgreSQL database (`--database postgres://…`): it serves the same app, Demo mode
// included, over HTTP with its token; About names the address without its password and the server's version; the
// data folder's SQLite file is never made; a second start on the same database finds the first one's data.

const { cleanups, folder, renderer } = shellFolders();

/** `POST /rpc/<method>` with the run's token, as the page calls it. */
async function rpc(url: string, method: string, input: unknown = {}): Promise<Record<string, unknown>> {
  const u = new URL(url);
  const token = u.searchParams.get('token')!;
  const r = await fetch(`${u.origin}/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  return (await r.json()) as Record<string, unknown>;
}

describe.skipIf(!pgAvailable())('the headless shell on PostgreSQL', () => {
  it('serves the app in Demo mode from the database, and the next start reads what the first wrote', async () => {
    const url = (await testDatabase('headless'))!.replace('postgres://lotwatch@', 'postgres://lotwatch:pw@');
    const dataDir = folder();
    const start = async () => {
      const h = await startHeadless({
        dataDir,
        rendererDir: renderer(),
        version: '0.0.0-test',
        log: silentLogger,
        database: url,
        env: {},
      });
      cleanups.push(() => h.dispose());
      return h;
    };
    const h = await start();
    expect(h.dataAt).toBe(redactedUrl(url));
    expect(h.dataAt).not.toContain(':pw@');
    const info = (await rpc(h.url, 'app.info'))['value'] as Record<string, unknown>;
    expect(info).toMatchObject({
      database: 'postgres',
      dbPath: redactedUrl(url),
      mode: 'demo',
      schemaVersion: MIGRATIONS[MIGRATIONS.length - 1]!.version,
    });
    expect((info['versions'] as Record<string, string>)['postgres']).toMatch(/^1\d/);
    const searches = await rpc(h.url, 'searches.create', { name: 'Hondas', params: { make: 'HONDA' } });
    expect(searches).toMatchObject({ ok: true });
    await h.dispose();
    expect(existsSync(join(dataDir, 'lotwatch.sqlite'))).toBe(false);

    const again = await start();
    const list = (await rpc(again.url, 'searches.list'))['value'] as { name: string }[];
    expect(list.map((s) => s.name)).toContain('Hondas');
    await again.dispose();
  }, 60_000);

  it('refuses a server that does not answer with one line naming the address without its password', async () => {
    const dataDir = folder();
    const e = await startHeadless({
      dataDir,
      rendererDir: renderer(),
      version: '0.0.0-test',
      log: silentLogger,
      database: 'postgres://lotwatch:hunter2@127.0.0.1:1/team',
      env: {},
    }).catch((err: unknown) => err as Error);
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toContain('postgres://lotwatch:***@127.0.0.1:1/team');
    expect((e as Error).message).not.toContain('hunter2');
    expect((e as Error).message.split('\n')).toHaveLength(1);
    // Nothing was made in the data folder for it: no SQLite file in place of the database.
    expect(existsSync(join(dataDir, 'lotwatch.sqlite'))).toBe(false);
  });
});
