import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LotwatchError } from '../../src/core/errors';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import { SIGN_IN_REFUSED } from '../../src/headless/teamServer';
import { SESSION_ENDED, SERVER_UNREACHABLE, TEAM_LINK_FILE, TeamLink } from '../../src/main/teamLink';
import type { ContractEvent } from '../../src/shared/ipc/contract';
import { teamCall } from '../../src/shared/teamClient';
import { freePort, pgAvailable, testDatabase } from '../helpers/postgres';
import { tempDir } from '../helpers/tmp';
import { Browser, teamShells } from './teamShell';

// The desktop app's link to a team server (src/main/teamLink.ts) in plain Node, against a real team server on a real
// PostgreSQL over real HTTP: join, calls as the member, the event stream, refusals, a session ended by an admin, and
// leaving (the server's session ended, the link's file gone).

const { start, cleanups } = teamShells();
const ADMIN_PW = 'first admin password';
const DANA_PW = 'dana password!';

/** A team server with a buyer "dana" (name "Dana Lee"), the admin's browser, and a fresh data folder for a link. */
async function team() {
  const h = await start((await testDatabase('teamlink'))!);
  const admin = new Browser(h.server.port);
  expect((await admin.login('admin', ADMIN_PW)).status).toBe(200);
  const made = await admin.rpc('team.users.create', {
    login: 'dana',
    name: 'Dana Lee',
    role: 'buyer',
    password: DANA_PW,
  });
  expect(made.json).toMatchObject({ ok: true });
  const danaId = (made.json!['value'] as { user: { id: number } }).user.id;
  return { h, admin, danaId, server: `http://127.0.0.1:${h.server.port}`, link: () => newLink() };
}

/** A link over a fresh data folder (or `dir`), closed after the test. */
function newLink(
  dir?: string,
  extra: Partial<ConstructorParameters<typeof TeamLink>[0]> = {},
): { link: TeamLink; dir: string; box: FileSecretBox } {
  let folder = dir;
  if (!folder) {
    const t = tempDir();
    cleanups.push(t.cleanup);
    folder = t.dir;
  }
  const box = new FileSecretBox(join(folder, 'test.key'));
  const link = new TeamLink({ dataDir: folder, secrets: box, log: silentLogger, ...extra });
  cleanups.push(() => link.close());
  return { link, dir: folder, box };
}

/** What a link's `join` threw. */
async function refusal(p: Promise<unknown>): Promise<LotwatchError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LotwatchError);
  return e as LotwatchError;
}

describe.skipIf(!pgAvailable())('the desktop app joined to a team server', () => {
  it('joins, keeps the session sealed in a 0600 file, answers calls and events as the member, and loads again', async () => {
    const { admin, server, h } = await team();
    const { link, dir, box } = newLink();
    expect(link.state()).toEqual({
      available: true,
      joined: false,
      server: null,
      login: null,
      user: null,
      signed_in: false,
    });
    const joined = await link.join(server, 'dana', DANA_PW);
    expect(joined).toMatchObject({
      available: true,
      joined: true,
      server,
      login: 'dana',
      user: { login: 'dana', name: 'Dana Lee', role: 'buyer' },
      signed_in: true,
    });
    // The file: this user only, the cookie sealed (never in plain text), written whole.
    const file = join(dir, TEAM_LINK_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { cookie: string; csrf: string };
    const cookie = box.decrypt(Buffer.from(stored.cookie, 'base64'));
    expect(cookie).toMatch(/^lotwatch_session=/);
    expect(readFileSync(file, 'utf8')).not.toContain(cookie);

    // The admin makes a saved search; the member's calls go to the team and see it, made by the admin.
    expect(
      (await admin.rpc('searches.create', { name: 'Hondas', params: { make: 'HONDA' } })).json,
    ).toMatchObject({ ok: true });
    const me = await link.invoke('team.me', undefined);
    expect(me).toMatchObject({ ok: true, value: { team: true, user: { login: 'dana' } } });
    const list = await link.invoke('searches.list', undefined);
    expect(list.ok).toBe(true);
    expect((list as { value: { name: string; created_by: { name: string } | null }[] }).value).toEqual([
      expect.objectContaining({ name: 'Hondas', created_by: expect.objectContaining({ name: 'admin' }) }),
    ]);
    // A role the member lacks: the team server's typed 403, as it is.
    const refused = await link.invoke('team.users.list', undefined);
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!refused.ok && refused.error.message).toMatch(
      /^Only an admin or above .* Ask an admin of your team/,
    );

    // Events: the member's own unread count as the stream opens, then what the team server sends.
    const events: ContractEvent[] = [];
    const off = link.on((e) => events.push(e));
    await vi.waitFor(() => expect(events.map((e) => e.name)).toContain('unread.changed'), { timeout: 5000 });
    h.server.broadcast({ name: 'deliveries.changed', payload: { at: 42 } });
    await vi.waitFor(
      () => expect(events).toContainEqual({ name: 'deliveries.changed', payload: { at: 42 } }),
      {
        timeout: 5000,
      },
    );
    off();

    // The next start reads the link back and goes on with the same session.
    const again = newLink(dir).link;
    expect(again.state()).toEqual(joined);
    expect(await again.invoke('team.me', undefined)).toMatchObject({ ok: true, value: { team: true } });
  }, 60_000);

  it('refuses a wrong password with the one message and keeps nothing, says the wait when throttled, and says when no server answers', async () => {
    const { server } = await team();
    const { link, dir } = newLink();
    const wrong = await refusal(link.join(server, 'dana', 'not the password'));
    expect(wrong.code).toBe('unauthorized');
    expect(wrong.message).toBe(SIGN_IN_REFUSED);
    const nobody = await refusal(link.join(server, 'nobody', 'not the password'));
    expect([nobody.code, nobody.message]).toEqual(['unauthorized', SIGN_IN_REFUSED]);
    expect(link.state().joined).toBe(false);
    expect(existsSync(join(dir, TEAM_LINK_FILE))).toBe(false);
    // After five failures of one login the server throttles it: the wait is said, and it may be tried again.
    for (let i = 0; i < 4; i++) await refusal(link.join(server, 'dana', `wrong ${i}`));
    const throttled = await refusal(link.join(server, 'dana', DANA_PW));
    expect(throttled.code).toBe('rate_limited');
    expect(throttled.retryable).toBe(true);
    expect(throttled.message).toMatch(/^Too many failed sign-ins\. Wait \d+ seconds, then try again\.$/);

    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await refusal(link.join(closed, 'dana', DANA_PW));
    expect(down.code).toBe('network');
    expect(down.message).toBe(
      `The team server at ${closed} is not reachable. Check the address and your connection, then try again.`,
    );
    // An address that answers, but not as a team server (here: a plain web server).
    const web = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>no</p>'),
    );
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => web.close(() => resolve())));
    const other = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    const notTeam = await refusal(link.join(other, 'dana', DANA_PW));
    expect([notTeam.code, notTeam.message]).toEqual([
      'bad_response',
      `The address ${other} answers, but not as a Lotwatch team server. Check the address with your team's admin.`,
    ]);
    expect(existsSync(join(dir, TEAM_LINK_FILE))).toBe(false);
  }, 60_000);

  it('says the session ended when an admin resets the password, and signs in again', async () => {
    const { admin, danaId, server } = await team();
    const { link, dir } = newLink();
    await link.join(server, 'dana', DANA_PW);
    const events: ContractEvent[] = [];
    link.on((e) => events.push(e));
    await vi.waitFor(() => expect(events.length).toBeGreaterThan(0), { timeout: 5000 });
    expect(
      (await admin.rpc('team.users.resetPassword', { id: danaId, password: 'a new password!' })).json,
    ).toMatchObject({ ok: true });
    expect(await link.invoke('searches.list', undefined)).toEqual({
      ok: false,
      error: { code: 'unauthorized', message: SESSION_ENDED, retryable: false },
    });
    expect(link.state()).toMatchObject({ joined: true, signed_in: false, login: 'dana' });
    // Kept across a restart: the next start asks for the sign-in too.
    expect(newLink(dir).link.state()).toMatchObject({ joined: true, signed_in: false });
    const seen = events.length;
    await link.join(server, 'dana', 'a new password!');
    expect(link.state()).toMatchObject({ joined: true, signed_in: true });
    expect(await link.invoke('team.me', undefined)).toMatchObject({ ok: true, value: { team: true } });
    // The stream opens again with the new session.
    await vi.waitFor(() => expect(events.length).toBeGreaterThan(seen), { timeout: 5000 });
  }, 60_000);

  it('leaves: signs out on the server, forgets the link, and answers no more calls for the team', async () => {
    const { server } = await team();
    const { link, dir, box } = newLink();
    await link.join(server, 'dana', DANA_PW);
    const stored = JSON.parse(readFileSync(join(dir, TEAM_LINK_FILE), 'utf8')) as {
      cookie: string;
      csrf: string;
    };
    const session = {
      base: server,
      cookie: box.decrypt(Buffer.from(stored.cookie, 'base64')),
      csrf: stored.csrf,
    };
    expect((await teamCall(session, 'team.me')).status).toBe(200);
    expect(await link.leave()).toEqual({
      available: true,
      joined: false,
      server: null,
      login: null,
      user: null,
      signed_in: false,
    });
    expect(existsSync(join(dir, TEAM_LINK_FILE))).toBe(false);
    // The session is over on the server: its cookie opens nothing any more.
    expect((await teamCall(session, 'team.me')).status).toBe(401);
    expect(link.joined()).toBe(false);
    expect(newLink(dir).link.state().joined).toBe(false);
  }, 60_000);

  it('opens the event stream again after failures, waiting 1 s, doubling, at most 30 s', async () => {
    const { server, h } = await team();
    let failures = 7;
    const waits: number[] = [];
    const { link } = newLink(undefined, {
      fetch: (input, init) =>
        String(input).includes('/events?') && failures-- > 0
          ? Promise.reject(new TypeError('fetch failed'))
          : fetch(input, init),
      // The waits are recorded and passed at once: no test waits a real second.
      setTimeout: (fn, ms) => {
        waits.push(ms);
        queueMicrotask(fn);
      },
    });
    await link.join(server, 'dana', DANA_PW);
    const events: ContractEvent[] = [];
    link.on((e) => events.push(e));
    await vi.waitFor(() => expect(events.map((e) => e.name)).toContain('unread.changed'), { timeout: 5000 });
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    h.server.broadcast({ name: 'deliveries.changed', payload: { at: 7 } });
    await vi.waitFor(
      () => expect(events).toContainEqual({ name: 'deliveries.changed', payload: { at: 7 } }),
      {
        timeout: 5000,
      },
    );
  }, 60_000);

  it('answers a network error when the team server stops', async () => {
    const { server, h } = await team();
    const { link } = newLink();
    await link.join(server, 'dana', DANA_PW);
    await h.dispose();
    expect(await link.invoke('team.me', undefined)).toEqual({
      ok: false,
      error: { code: 'network', message: SERVER_UNREACHABLE, retryable: true },
    });
    expect(link.state().signed_in).toBe(true);
  }, 60_000);
});
