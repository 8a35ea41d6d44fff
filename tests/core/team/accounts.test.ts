import { afterEach, describe, expect, it } from 'vitest';
import { KyselyExec } from '../../../src/core/db/kysely/exec';
import { migratePgAt } from '../../../src/core/db/pg/migrate';
import { openPostgres, type PostgresHandle } from '../../../src/core/db/pg/open';
import { LotwatchError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/log';
import {
  inSession,
  sessionHash,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  TeamAccounts,
} from '../../../src/core/team/accounts';
import { afterFailure, FIRST_WAIT_MS, MAX_WAIT_MS, retryAfterS } from '../../../src/core/team/throttle';
import { pgAvailable, testDatabase } from '../../helpers/postgres';

// A team's accounts on a real PostgreSQL (docs/architecture.md "A team on one server"): argon2id hashes, sessions in
// the database with expiry and idle timeout, the sign-in throttle shared by every server, resets and the last admin.

const open: PostgresHandle[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** A stepped wall clock (ms). */
function steppedNow(start = Date.UTC(2026, 10, 27, 9)): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** `n` TeamAccounts over one new migrated database, each on its own pool (as `n` team servers), on one clock. */
async function team(n = 1, clock = steppedNow()): Promise<TeamAccounts[]> {
  const url = (await testDatabase('team'))!;
  await migratePgAt(url);
  const out: TeamAccounts[] = [];
  for (let i = 0; i < n; i++) {
    const h = await openPostgres(url, { max: 2 });
    open.push(h);
    out.push(new TeamAccounts({ exec: new KyselyExec(h.db), now: clock.now, log: silentLogger }));
  }
  return out;
}

const PW = 'correct horse battery';

describe('the sign-in throttle rules', () => {
  it('lets 4 failures pass, makes the 5th wait 30 s, doubles each further one up to 15 minutes', () => {
    let s = undefined as ReturnType<typeof afterFailure> | undefined;
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      s = afterFailure(s, 1000, 5);
      waits.push(s.locked_until === 0 ? 0 : s.locked_until - 1000);
    }
    expect(waits.slice(0, 7)).toEqual([0, 0, 0, 0, FIRST_WAIT_MS, 2 * FIRST_WAIT_MS, 4 * FIRST_WAIT_MS]);
    expect(waits[11]).toBe(MAX_WAIT_MS);
    expect(retryAfterS([{ locked_until: 31_000 }, { locked_until: 0 }], 1000)).toBe(30);
    expect(retryAfterS([{ locked_until: 1000 }], 1000)).toBe(0);
  });

  it('forgets failures an hour old when no wait runs', () => {
    const s = afterFailure({ failures: 4, last_failure_at: 0, locked_until: 0 }, 3_600_001, 5);
    expect(s).toEqual({ failures: 1, last_failure_at: 3_600_001, locked_until: 0 });
  });
});

describe.skipIf(!pgAvailable())('team accounts on PostgreSQL', () => {
  it('stores an argon2id hash, signs in whatever the case of the login, and refuses a second member with it', async () => {
    const [a] = await team();
    const m = await a!.create({ login: 'Dana', name: 'Dana Reyes', role: 'buyer', password: PW });
    expect(m).toMatchObject({ login: 'Dana', role: 'buyer', disabled: false, last_sign_in_at: null });
    const row = await a!.users.byId(m.id);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.password_hash).not.toContain(PW);
    const r = await a!.signIn('DANA', PW, '10.0.0.1');
    expect(r).toMatchObject({ ok: true, user: { id: m.id, login: 'Dana', role: 'buyer' } });
    if (!r.ok) throw new Error('signed in');
    // The cookie's id is 256 bits; only its SHA-256 is stored.
    expect(Buffer.from(r.sessionId, 'base64url')).toHaveLength(32);
    expect(await a!.sessions.lookup(r.sessionId)).toBeUndefined();
    expect(await a!.sessions.lookup(sessionHash(r.sessionId))).toBeDefined();
    expect(await a!.session(r.sessionId)).toMatchObject({ csrf: r.csrf, user: { name: 'Dana Reyes' } });
    const dup = await a!.create({ login: 'dANA', name: 'x', role: 'viewer', password: PW }).catch((e) => e);
    expect(dup).toMatchObject({ code: 'bad_input', fields: { login: [expect.any(String)] } });
  });

  it('refuses a wrong password and an unknown login alike, then throttles on every server of the team', async () => {
    const clock = steppedNow();
    const [one, two] = await team(2, clock);
    await one!.create({ login: 'sam', name: 'Sam', role: 'viewer', password: PW });
    // Failures alternate between the two servers: the count is the team's.
    for (let i = 0; i < 5; i++) {
      const server = i % 2 === 0 ? one! : two!;
      expect(await server.signIn('sam', 'wrong password', '10.0.0.2')).toEqual({
        ok: false,
        reason: 'refused',
      });
    }
    // Even the right password waits now, on either server.
    expect(await two!.signIn('sam', PW, '10.0.0.3')).toEqual({
      ok: false,
      reason: 'throttled',
      retryAfterS: 30,
    });
    expect(await one!.signIn('SAM', PW, '10.0.0.3')).toMatchObject({ reason: 'throttled' });
    // An unknown login gets the same answers in the same order.
    for (let i = 0; i < 5; i++)
      expect(await one!.signIn('nobody', PW, '10.0.0.4')).toEqual({ ok: false, reason: 'refused' });
    expect(await two!.signIn('nobody', PW, '10.0.0.4')).toMatchObject({
      reason: 'throttled',
      retryAfterS: 30,
    });
    clock.advance(30_000);
    expect(await two!.signIn('sam', PW, '10.0.0.3')).toMatchObject({ ok: true });
  });

  it('throttles one client address trying many logins', async () => {
    const [a] = await team();
    for (let i = 0; i < 20; i++) await a!.signIn(`guess${i}`, 'nope nope nope', '10.9.9.9');
    expect(await a!.signIn('other', 'nope nope nope', '10.9.9.9')).toMatchObject({ reason: 'throttled' });
    expect(await a!.signIn('other', 'nope nope nope', '10.9.9.8')).toEqual({ ok: false, reason: 'refused' });
  });

  it('ends a session after its idle time or its lifetime, and at once when the member is turned off', async () => {
    const clock = steppedNow();
    const [a] = await team(1, clock);
    await a!.create({ login: 'admin1', name: 'Ada', role: 'admin', password: PW });
    const b = await a!.create({ login: 'bea', name: 'Bea', role: 'buyer', password: PW });
    const sign = async () => {
      const r = await a!.signIn('bea', PW, '10.0.0.5');
      if (!r.ok) throw new Error('sign in');
      return r.sessionId;
    };
    // Never used again: it ends after its idle time.
    const idle = await sign();
    clock.advance(SESSION_IDLE_MS + 1);
    expect(await a!.session(idle)).toBeNull();
    // Used within each idle time, it lasts until its lifetime ends, and no longer.
    const used = await sign();
    let elapsed = 0;
    while (elapsed + SESSION_IDLE_MS - 60_000 < SESSION_MAX_MS) {
      clock.advance(SESSION_IDLE_MS - 60_000);
      elapsed += SESSION_IDLE_MS - 60_000;
      expect(await a!.session(used)).not.toBeNull();
    }
    clock.advance(SESSION_MAX_MS - elapsed);
    expect(await a!.session(used)).toBeNull();
    const s = await sign();
    await a!.update({ id: b.id, disabled: true });
    expect(await a!.session(s)).toBeNull();
    expect(await a!.signIn('bea', PW, '10.0.0.5')).toEqual({ ok: false, reason: 'refused' });
    await a!.update({ id: b.id, disabled: false });
    expect(await a!.signIn('bea', PW, '10.0.0.6')).toMatchObject({ ok: true });
  });

  it("an admin's reset ends the member's sessions; a member's own change keeps the session that made it", async () => {
    const [a] = await team();
    const m = await a!.create({ login: 'cy', name: 'Cy', role: 'viewer', password: PW });
    const sign = async (pw = PW) => {
      const r = await a!.signIn('cy', pw, '10.0.0.7');
      if (!r.ok) throw new Error('sign in');
      return r.sessionId;
    };
    const s1 = await sign();
    await a!.resetPassword(m.id, 'a brand new password');
    expect(await a!.session(s1)).toBeNull();
    const here = await sign('a brand new password');
    const there = await sign('a brand new password');
    const wrong = await inSession(sessionHash(here), () =>
      a!.changePassword(m.id, 'not it at all', 'my own password 2'),
    ).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(LotwatchError);
    expect(wrong).toMatchObject({ code: 'bad_input', fields: { current: [expect.any(String)] } });
    await inSession(sessionHash(here), () =>
      a!.changePassword(m.id, 'a brand new password', 'my own password 2'),
    );
    expect(await a!.session(here)).not.toBeNull();
    expect(await a!.session(there)).toBeNull();
    expect(await a!.signIn('cy', 'my own password 2', '10.0.0.7')).toMatchObject({ ok: true });
    await expect(a!.resetPassword(9999, 'whatever password')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps one admin who can sign in, and makes one first admin when two servers start at once', async () => {
    const [one, two] = await team(2);
    const made = await Promise.all([
      one!.ensureFirstAdmin('admin', undefined),
      two!.ensureFirstAdmin('admin', undefined),
    ]);
    expect(made.filter((x) => x !== null)).toHaveLength(1);
    const first = made.find((x) => x !== null)!;
    expect(first.password).toMatch(/^[\w-]{20}$/);
    expect(await one!.ensureFirstAdmin('admin', 'a given password')).toBeNull();
    const admin = (await one!.list())[0]!;
    expect(admin).toMatchObject({ login: 'admin', role: 'admin' });
    expect(await one!.signIn('admin', first.password!, '10.0.0.8')).toMatchObject({ ok: true });
    await expect(one!.update({ id: admin.id, role: 'buyer' })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(one!.update({ id: admin.id, disabled: true })).rejects.toMatchObject({ code: 'bad_input' });
    const other = await one!.create({ login: 'boss', name: 'Boss', role: 'admin', password: PW });
    // Two admins demoting each other at once: the table lock lets one through.
    const both = await Promise.allSettled([
      one!.update({ id: admin.id, role: 'buyer' }),
      two!.update({ id: other.id, role: 'viewer' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await one!.list()).filter((u) => u.role === 'admin')).toHaveLength(1);
  });
});
