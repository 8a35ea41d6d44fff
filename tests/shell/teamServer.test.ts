import { join } from 'node:path';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { currentActor } from '../../src/core/actor';
import { machineOffset } from '../../src/core/owners';
import { SIGN_IN_REFUSED } from '../../src/headless/teamServer';
import { teamUserCommand } from '../../src/headless/teamUserCommand';
import { startHeadless } from '../../src/headless/start';
import { silentLogger } from '../../src/core/log';
import { METHOD_NAMES } from '../../src/shared/ipc/channels';
import type { ContractEvent } from '../../src/shared/ipc/contract';
import { METHOD_ROLES, ROLES, roleAllows, type Role } from '../../src/shared/team';
import { pgAvailable, testDatabase } from '../helpers/postgres';
import { childScript } from '../helpers/children';
import { tempDir } from '../helpers/tmp';
import { rendererFolder, runCliProcess } from './shellFolders';
import { raw } from './rawHttp';
import { Browser, teamShells } from './teamShell';

// The headless shell's team mode over real HTTP on a real PostgreSQL (docs/team.md, docs/architecture.md "A team on
// one server"): sign-in and out, the cookie's flags, CSRF and Origin, the throttle across two servers, a member
// turned off, an admin's reset, the role walk over every method, and each member's own unread count on the stream.

const { start } = teamShells();
const ADMIN_PW = 'first admin password';
const PUBLIC = 'https://lotwatch.example.com';

/** A new database for one test. */
const database = async () => (await testDatabase('teamshell'))!;

/** The admin's browser, signed in, and a way to add members (each signed in on their own browser). */
async function adminOf(port: number, host?: string, origin?: string) {
  const admin = new Browser(port, host, origin);
  expect((await admin.login('admin', ADMIN_PW)).status).toBe(200);
  const add = async (login: string, role: Role): Promise<{ id: number; browser: Browser }> => {
    const r = await admin.rpc('team.users.create', {
      login,
      name: login.toUpperCase(),
      role,
      password: `${login} password!`,
    });
    expect(r.json, login).toMatchObject({ ok: true });
    const browser = new Browser(port, host, origin);
    expect((await browser.login(login, `${login} password!`)).status).toBe(200);
    return { id: (r.json!['value'] as { user: { id: number } }).user.id, browser };
  };
  return { admin, add };
}

/** Reads a member's event stream: the events so far, and `until` to wait (with a deadline) for one that matches. */
function openStream(b: Browser, csrf = b.csrf) {
  const events: ContractEvent[] = [];
  let status = 0;
  const req = request({
    host: '127.0.0.1',
    port: b.port,
    path: `/events?csrf=${encodeURIComponent(csrf)}`,
    headers: { Host: b.host, Cookie: b.cookie, Accept: 'text/event-stream' },
  });
  const opened = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (block.startsWith('data: ')) events.push(JSON.parse(block.slice(6)) as ContractEvent);
        }
      });
      resolve(status);
    });
    req.on('error', reject);
  });
  req.end();
  return {
    events,
    opened,
    close: () => req.destroy(),
    /** Waits up to 5 s for an event matching `p`; returns it. @throws when none came. */
    async until(p: (e: ContractEvent) => boolean): Promise<ContractEvent> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const e = events.find(p);
        if (e) return e;
        if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

describe('team mode refuses what does not make a team server', () => {
  it('refuses --team without a PostgreSQL database, and another host than this computer without --team', async () => {
    const base = { rendererDir: '/nonexistent', version: 't', log: silentLogger, env: {} };
    const e = await startHeadless({ ...base, dataDir: '/nonexistent', team: {} }).catch((x: Error) => x);
    expect((e as Error).message).toBe(
      "--team needs the team's PostgreSQL database: add --database postgres://user:password@host:5432/name.",
    );
    const h = await startHeadless({ ...base, dataDir: '/nonexistent', host: '0.0.0.0' }).catch(
      (x: Error) => x,
    );
    expect((h as Error).message).toMatch(/^--host 0\.0\.0\.0 would open your data to other computers\./);
  });
});

describe('the command line in team mode', () => {
  it('refuses --team without PostgreSQL in one line, and team options without --team', async () => {
    const dir = tempDir();
    const page = rendererFolder();
    try {
      const base = ['--data-dir', dir.dir, '--renderer-dir', page.dir];
      const noDb = await runCliProcess(childScript('cli'), ['--team', ...base]);
      expect(noDb.code).toBe(1);
      expect(noDb.stderr.trim().split('\n')).toEqual([
        "lotwatch: --team needs the team's PostgreSQL database: add --database postgres://user:password@host:5432/name.",
      ]);
      const noTeam = await runCliProcess(childScript('cli'), [
        '--public-origin',
        'https://x.example',
        ...base,
      ]);
      expect(noTeam.code).toBe(2);
      expect(noTeam.stderr).toContain('add --team');
    } finally {
      dir.cleanup();
      page.cleanup();
    }
  });

  it.skipIf(!pgAvailable())(
    'says a generated first admin password once, at the first start only',
    async () => {
      const db = await database();
      const page = rendererFolder();
      const dirs = [tempDir(), tempDir()];
      try {
        const run = (dir: string) =>
          runCliProcess(childScript('cli'), [
            '--team',
            '--database',
            db,
            '--data-dir',
            dir,
            '--renderer-dir',
            page.dir,
            // The team's one key file, as every server of a team needs (the second start checks it opens).
            '--secret-key-file',
            join(dirs[0]!.dir, 'team.key'),
          ]);
        const first = await run(dirs[0]!.dir);
        expect(first.stdout).toMatch(/^First admin: admin, password \(shown once\): [\w-]{20}$/m);
        expect(first.stdout).toMatch(/^Open: http:\/\/127\.0\.0\.1:\d+\/$/m);
        const second = await run(dirs[1]!.dir);
        expect(second.stdout).toContain('Open: ');
        expect(second.stdout).not.toContain('First admin');
      } finally {
        page.cleanup();
        for (const d of dirs) d.cleanup();
      }
    },
    60_000,
  );
});

describe.skipIf(!pgAvailable())('a team server', () => {
  it('signs a member in and out with a HttpOnly, SameSite=Strict, Secure cookie behind https, and needs no token', async () => {
    const h = await start(await database(), { publicOrigin: PUBLIC });
    expect(h.url).toBe(PUBLIC);
    expect(h.firstAdmin).toEqual({ login: 'admin', password: null });
    const port = h.server.port;
    const b = new Browser(port, 'lotwatch.example.com', PUBLIC);
    expect((await raw(port, { path: '/', headers: { Host: 'lotwatch.example.com' } })).status).toBe(200);
    const none = await raw(port, { path: '/auth/session', headers: b.headers() });
    expect(none.json).toEqual({ team: true, user: null, csrf: null });
    const wrong = await b.login('admin', 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: SIGN_IN_REFUSED },
    });
    const ok = await b.login('ADMIN', ADMIN_PW);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ user: { login: 'admin', role: 'admin' }, csrf: b.csrf });
    const cookie = ([] as string[]).concat(ok.headers['set-cookie'] ?? [])[0]!;
    const flags = cookie.split('; ').slice(1);
    expect(cookie).toMatch(/^__Host-lotwatch_session=[\w-]{43};/);
    expect(flags).toEqual(
      expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', 'Max-Age=604800']),
    );
    expect(flags.some((f) => f.startsWith('Domain'))).toBe(false);
    const session = await raw(port, { path: '/auth/session', headers: b.headers() });
    expect(session.json).toMatchObject({ team: true, user: { login: 'admin' }, csrf: b.csrf });
    expect((await b.rpc('team.me')).json).toMatchObject({
      ok: true,
      value: { team: true, user: { login: 'admin', role: 'admin' } },
    });
    // The single-user shell's credentials open nothing here.
    const bearer = await raw(port, {
      method: 'POST',
      path: `/rpc/app.info?token=${h.server.token}`,
      headers: { Host: b.host, authorization: `Bearer ${h.server.token}` },
    });
    expect(bearer.status).toBe(401);
    const out = await raw(port, { method: 'POST', path: '/auth/logout', headers: b.headers() });
    expect(out.status).toBe(200);
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? [])[0]).toMatch(/^__Host-lotwatch_session=;/);
    const after = await b.rpc('team.me');
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('asks every call for its CSRF token and its own origin, and answers only for its own host names', async () => {
    const h = await start(await database(), { publicOrigin: PUBLIC });
    const port = h.server.port;
    const { admin: b } = await adminOf(port, 'lotwatch.example.com', PUBLIC);
    expect((await b.rpc('app.info', undefined, null)).status).toBe(403);
    const wrong = await b.rpc('app.info', undefined, `${b.csrf.slice(0, -1)}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.json).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await b.rpc('app.info')).status).toBe(200);
    // The loopback address works too (the proxy's way in); plain http there: no Secure needed to read the page.
    const local = new Browser(port);
    local.cookie = b.cookie;
    local.csrf = b.csrf;
    expect((await local.rpc('app.info')).status).toBe(200);
    // Another site, or another host name, is refused even with the cookie and the token.
    const evil = await raw(port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { ...b.headers({ 'X-CSRF-Token': b.csrf }), Origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    const login = await raw(port, {
      method: 'POST',
      path: '/auth/login',
      headers: { ...b.headers(), Origin: 'https://evil.example' },
      body: JSON.stringify({ login: 'admin', password: ADMIN_PW }),
    });
    expect(login.status).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
    const rebound = await raw(port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { ...b.headers({ 'X-CSRF-Token': b.csrf }), Host: 'evil.example' },
    });
    expect(rebound.status).toBe(403);
    // The event stream takes the token in its address, and nothing without it.
    const bare = openStream(b, '');
    expect(await bare.opened).toBe(403);
    bare.close();
    const stream = openStream(b);
    expect(await stream.opened).toBe(200);
    stream.close();
  });

  it('throttles sign-ins on every server of the team after 5 failures of a login, with one message for every wrong try', async () => {
    const db = await database();
    const one = await start(db);
    const two = await start(db);
    const a = new Browser(one.server.port);
    const b = new Browser(two.server.port);
    const bodies = new Set<string>();
    for (const [i, [who, login]] of (
      [
        [a, 'admin'],
        [b, 'admin'],
        [a, 'nobody'],
        [b, 'admin'],
        [a, 'admin'],
        [b, 'admin'],
      ] as const
    ).entries()) {
      const r = await who.login(login, `wrong password ${i}`);
      expect(r.status).toBe(401);
      bodies.add(r.body);
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        ok: false,
        error: { code: 'unauthorized', message: SIGN_IN_REFUSED, retryable: false },
      }),
    ]);
    for (const who of [a, b]) {
      const r = await who.login('admin', ADMIN_PW);
      expect(r.status).toBe(429);
      expect(r.json).toMatchObject({ retry_after_s: expect.any(Number), error: { code: 'rate_limited' } });
      expect(r.json!['retry_after_s']).toBeGreaterThan(25);
      expect(r.headers['retry-after']).toBe(String(r.json!['retry_after_s']));
      expect(r.headers['set-cookie']).toBeUndefined();
    }
  });

  it('lets an operator add a member and set a password from the command line', async () => {
    const db = await database();
    const lines: string[] = [];
    const out = { log: (l: string) => void lines.push(l), error: (l: string) => void lines.push(`E ${l}`) };
    const add = ['add', '--database', db, '--login', 'dana', '--name', 'Dana Reyes', '--role', 'viewer'];
    expect(await teamUserCommand(add, { LOTWATCH_USER_PASSWORD: 'dana password 1' }, out)).toBe(0);
    expect(await teamUserCommand(add, { LOTWATCH_USER_PASSWORD: 'dana password 1' }, out)).toBe(1);
    expect(await teamUserCommand(['add', '--database', db, '--login', 'x y'], {}, out)).toBe(2);
    expect(await teamUserCommand(['reset', '--database', db, '--login', 'DANA'], {}, out)).toBe(0);
    const password = /^Password \(shown once\): ([\w-]{20})$/.exec(lines.at(-1)!)?.[1];
    expect(password, lines.join('\n')).toBeDefined();
    const h = await start(db);
    const b = new Browser(h.server.port);
    expect((await b.login('dana', 'dana password 1')).status).toBe(401);
    expect((await b.login('dana', password!)).json).toMatchObject({
      user: { name: 'Dana Reyes', role: 'viewer' },
    });
  });

  it("refuses a member an admin turned off, and ends a member's sessions when an admin resets their password", async () => {
    const h = await start(await database());
    const { admin, add } = await adminOf(h.server.port);
    const bea = await add('bea', 'buyer');
    const cy = await add('cy', 'viewer');
    expect((await bea.browser.rpc('searches.list')).status).toBe(200);
    expect((await admin.rpc('team.users.update', { id: bea.id, disabled: true })).json).toMatchObject({
      ok: true,
      value: { user: { login: 'bea', disabled: true } },
    });
    expect((await bea.browser.rpc('searches.list')).status).toBe(401);
    const again = await new Browser(h.server.port).login('bea', 'bea password!');
    expect(again.status).toBe(401);
    expect(again.json).toMatchObject({ error: { message: SIGN_IN_REFUSED } });

    expect(
      (await admin.rpc('team.users.resetPassword', { id: cy.id, password: 'a new one for cy' })).json,
    ).toEqual({
      ok: true,
      value: { ok: true },
    });
    expect((await cy.browser.rpc('searches.list')).status).toBe(401);
    expect((await new Browser(h.server.port).login('cy', 'cy password!')).status).toBe(401);
    expect((await cy.browser.login('cy', 'a new one for cy')).status).toBe(200);
    expect((await cy.browser.rpc('searches.list')).status).toBe(200);
    const list = (await admin.rpc('team.users.list')).json!['value'] as { users: { login: string }[] };
    expect(list.users.map((u) => u.login)).toEqual(['admin', 'bea', 'cy']);
  });

  it('walks every method with every role: below the role a method needs, 403 and core is not called', async () => {
    const h = await start(await database());
    const { admin, add } = await adminOf(h.server.port);
    // Off the Demo market: no call below reaches a service (there is no key either).
    expect((await admin.rpc('settings.update', { demoMode: false })).json).toMatchObject({ ok: true });
    const browsers: Record<Role, Browser> = {
      viewer: (await add('vic', 'viewer')).browser,
      buyer: (await add('bob', 'buyer')).browser,
      admin,
    };
    let calls = 0;
    const invoke = h.core.invoke.bind(h.core);
    h.core.invoke = (m, i) => {
      calls++;
      return invoke(m, i);
    };
    let refused = 0;
    let passed = 0;
    for (const m of METHOD_NAMES)
      for (const role of ROLES) {
        const before = calls;
        const r = await browsers[role].rpc(m);
        const gate =
          r.status === 403 && (r.json?.['error'] as { code?: string } | undefined)?.code === 'forbidden';
        if (roleAllows(role, METHOD_ROLES[m])) {
          expect(gate, `${m} as ${role}: ${r.body}`).toBe(false);
          expect(calls, `${m} as ${role} reached core`).toBeGreaterThan(before);
          passed++;
        } else {
          expect(gate, `${m} as ${role}: ${r.body}`).toBe(true);
          expect((r.json!['error'] as { message: string }).message).toMatch(/^Only an? \w+ or above/);
          expect(calls, `${m} as ${role} must not reach core`).toBe(before);
          refused++;
        }
      }
    expect(refused + passed).toBe(METHOD_NAMES.length * 3);
    expect(refused).toBeGreaterThan(20);
    // A member changes their own settings; only an admin the team's, and nothing changes when refused.
    expect((await browsers.buyer.rpc('settings.update', { theme: 'dark' })).status).toBe(200);
    const before = calls;
    const team = await browsers.buyer.rpc('settings.update', { requestsPerDay: 3 });
    expect(team.status).toBe(403);
    expect(calls).toBe(before);
    expect(
      ((await admin.rpc('settings.get')).json!['value'] as { requestsPerDay: unknown }).requestsPerDay,
    ).toBeNull();
  }, 60_000);

  it("gives each member's stream their own unread count, and notifications only to members who want them now", async () => {
    const h = await start(await database());
    const { add } = await adminOf(h.server.port);
    const a = await add('ann', 'viewer');
    const b = await add('ben', 'buyer');
    const c = await add('cal', 'buyer');
    // Cal wants notifications but is in his quiet hours now (an hour either side, in this machine's time).
    const hhmm = (t: number) => {
      const d = new Date(t + machineOffset(t) * 60_000);
      return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    };
    const calQuiet = {
      enabled: true,
      start: hhmm(Date.now() - 3_600_000),
      end: hhmm(Date.now() + 3_600_000),
    };
    // Core answers as the member who asks (currentActor): a count and a notifications switch of each member's own.
    const invoke = h.core.invoke.bind(h.core);
    h.core.invoke = async (m, i) => {
      const who = currentActor().userId ?? 0;
      if (m === 'alerts.unread') return { ok: true, value: { count: who * 10 } };
      const r = await invoke(m, i);
      if (m === 'settings.get' && r.ok)
        return {
          ok: true,
          value: {
            ...(r.value as object),
            notificationsEnabled: who === a.id || who === c.id,
            ...(who === c.id ? { quietHours: calQuiet } : {}),
          },
        };
      return r;
    };
    const listeners: ((e: ContractEvent) => void)[] = [];
    const on = h.core.on.bind(h.core);
    h.core.on = (l) => {
      listeners.push(l);
      return on(l);
    };
    const sa = openStream(a.browser);
    const sb = openStream(b.browser);
    const sc = openStream(c.browser);
    expect([await sa.opened, await sb.opened, await sc.opened]).toEqual([200, 200, 200]);
    await sa.until((e) => e.name === 'unread.changed' && e.payload.count === a.id * 10);
    await sb.until((e) => e.name === 'unread.changed' && e.payload.count === b.id * 10);
    for (const l of listeners) l({ name: 'unread.changed', payload: { count: 999 } });
    h.server.broadcast({
      name: 'notification.posted',
      payload: { tag: 't1', title: 'Sold', body: 'x', lot_key: null },
    });
    // A fence: each stream reads its settings again after the notification's check, in the same order.
    for (const l of listeners) l({ name: 'settings.changed', payload: {} as never });
    await sa.until((e) => e.name === 'notification.posted');
    await sb.until((e) => e.name === 'settings.changed');
    await sa.until((e) => e.name === 'settings.changed');
    await sc.until((e) => e.name === 'settings.changed');
    const counts = (s: typeof sa) =>
      s.events.flatMap((e) => (e.name === 'unread.changed' ? [e.payload.count] : []));
    expect(new Set(counts(sa))).toEqual(new Set([a.id * 10]));
    expect(new Set(counts(sb))).toEqual(new Set([b.id * 10]));
    expect(counts(sa).length).toBeGreaterThanOrEqual(2);
    expect(sb.events.some((e) => e.name === 'notification.posted')).toBe(false);
    expect(sc.events.some((e) => e.name === 'notification.posted')).toBe(false);
    sa.close();
    sb.close();
    sc.close();
  });
});
