import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TeamMember, TeamUser } from '../../shared/ipc/contract/team';
import type { Role } from '../../shared/team';
import type { Actor } from '../actor';
import type { KyselyExec } from '../db/kysely/exec';
import {
  KyselySessionsRepo,
  KyselyThrottleRepo,
  KyselyUsersRepo,
  type UserRow,
} from '../db/kysely/teamAccountsRepo';
import { BadInputError, LotwatchError } from '../errors';
import type { Logger } from '../log';
import { dummyHash, generatedPassword, hashPassword, passwordMatches } from './passwords';
import {
  addressKey,
  ADDRESS_FAILURES_ALLOWED,
  afterFailure,
  FORGET_AFTER_MS,
  LOGIN_FAILURES_ALLOWED,
  loginKey,
  retryAfterS,
} from './throttle';

/*
 * A team's accounts and sessions (docs/architecture.md "A team on one server"): members with argon2id password
 * hashes, sessions kept in the team's database (every server accepts the cookie), and the sign-in throttle.
 */

/** A session ends this long after sign-in, used or not (ms). */
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;
/** A session unused this long ends (ms). */
export const SESSION_IDLE_MS = 24 * 3_600_000;
/** A session's last use is written at most this often (ms): a page's calls do not each write a row. */
const TOUCH_EVERY_MS = 60_000;

/** The answer to a sign-in: the member and their new session, or why not (refused: one answer for every reason). */
export type SignInResult =
  | { ok: true; user: TeamUser; sessionId: string; csrf: string }
  | { ok: false; reason: 'refused' }
  | { ok: false; reason: 'throttled'; retryAfterS: number };

/** A live session: its member (enabled) and its CSRF token. `idHash` names it in the database. */
export interface LiveSession {
  idHash: string;
  csrf: string;
  user: TeamUser;
}

/** The SHA-256 of a session id, as stored: a copy of the sessions table opens no session. */
export const sessionHash = (id: string) => createHash('sha256').update(id).digest('hex');

/** Whether two texts are equal, in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A member as the admin's list shows them. */
export function memberView(u: UserRow): TeamMember {
  return {
    id: u.id,
    login: u.login,
    name: u.name,
    role: u.role,
    disabled: u.disabled !== 0,
    created_at: u.created_at,
    last_sign_in_at: u.last_sign_in_at,
  };
}

const userView = (u: UserRow): TeamUser => ({ id: u.id, login: u.login, name: u.name, role: u.role });

/** The actor a member's calls run as (src/core/actor.ts). */
export const actorOf = (u: TeamUser): Actor => ({ userId: u.id, name: u.name, role: u.role });

const currentSession = new AsyncLocalStorage<string>();

/** Runs `fn` knowing the caller's session (`idHash`), so a password change can keep it while ending the others. */
export function inSession<T>(idHash: string, fn: () => T): T {
  return currentSession.run(idHash, fn);
}

/** The members, sessions and throttle of a team server, over its database. */
export class TeamAccounts {
  readonly users: KyselyUsersRepo;
  readonly sessions: KyselySessionsRepo;
  readonly throttle: KyselyThrottleRepo;
  private readonly now: () => number;
  private readonly log: Logger;

  /** `exec`: the team's PostgreSQL database; `now`: the wall clock (ms). */
  constructor(d: { exec: KyselyExec; now: () => number; log: Logger }) {
    this.users = new KyselyUsersRepo(d.exec, 'postgres');
    this.sessions = new KyselySessionsRepo(d.exec);
    this.throttle = new KyselyThrottleRepo(d.exec, 'postgres');
    this.now = d.now;
    this.log = d.log;
  }

  /**
   * Signs `login` in with `password` from client `address`. Answers `throttled` (nothing checked) while the login or
   * the address waits; `refused` for an unknown login, a wrong password or an account turned off alike, after the
   * same work (an unknown login is checked against a dummy hash) and with the failure counted for the login and the
   * address; else a new session (a 256-bit random id, stored as its SHA-256) and its CSRF token.
   * @throws the driver's errors.
   */
  async signIn(login: string, password: string, address: string): Promise<SignInResult> {
    const now = this.now();
    const keys = [loginKey(login), addressKey(address)];
    const wait = retryAfterS(await this.throttle.get(keys), now);
    if (wait > 0) return { ok: false, reason: 'throttled', retryAfterS: wait };
    const user = login.length <= 64 ? await this.users.byLogin(login.trim()) : undefined;
    const matches = await passwordMatches(user?.password_hash ?? (await dummyHash()), password);
    if (!user || !matches || user.disabled !== 0) {
      await this.throttle.fail(keys[0]!, (old) => afterFailure(old, now, LOGIN_FAILURES_ALLOWED));
      await this.throttle.fail(keys[1]!, (old) => afterFailure(old, now, ADDRESS_FAILURES_ALLOWED));
      if (Math.random() < 0.05) await this.throttle.prune(now - FORGET_AFTER_MS, now);
      return { ok: false, reason: 'refused' };
    }
    await this.throttle.clear(keys[0]!);
    const sessionId = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    await this.sessions.insert({
      id_hash: sessionHash(sessionId),
      user_id: user.id,
      csrf,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_MAX_MS,
    });
    await this.users.signedIn(user.id, now);
    return { ok: true, user: userView(user), sessionId, csrf };
  }

  /**
   * The live session of cookie value `sessionId`, or null: unknown, ended (SESSION_MAX_MS), idle too long
   * (SESSION_IDLE_MS; then deleted), or its member turned off. The member's role and name are read now, so a change
   * by an admin applies to the next call. @throws the driver's errors.
   */
  async session(sessionId: string): Promise<LiveSession | null> {
    if (sessionId.length === 0 || sessionId.length > 100) return null;
    const idHash = sessionHash(sessionId);
    const s = await this.sessions.lookup(idHash);
    if (!s) return null;
    const now = this.now();
    if (s.expires_at <= now || now - s.last_seen_at >= SESSION_IDLE_MS) {
      await this.sessions.remove(idHash);
      return null;
    }
    if (s.user.disabled !== 0) return null;
    if (now - s.last_seen_at >= TOUCH_EVERY_MS) await this.sessions.touch(idHash, now);
    return { idHash, csrf: s.csrf, user: userView(s.user) };
  }

  /** Ends the session of cookie value `sessionId` (nothing when there is none). @throws the driver's errors. */
  async signOut(sessionId: string): Promise<void> {
    await this.sessions.remove(sessionHash(sessionId));
  }

  /** Every member. */
  async list(): Promise<TeamMember[]> {
    return (await this.users.list()).map(memberView);
  }

  /** The member `id` as the page shows them, or null. */
  async user(id: number): Promise<TeamUser | null> {
    const u = await this.users.byId(id);
    return u ? userView(u) : null;
  }

  /**
   * Adds a member with `password` (hashed with argon2id).
   * @throws BadInputError (field `login`) when the login is taken, whatever its case.
   */
  async create(m: { login: string; name: string; role: Role; password: string }): Promise<TeamMember> {
    const password_hash = await hashPassword(m.password);
    const taken = () =>
      new BadInputError('Login: another member already has this login. Choose another one.', {
        login: ['Another member already has this login. Choose another one.'],
      });
    if (await this.users.byLogin(m.login)) throw taken();
    let id: number;
    try {
      id = await this.users.insert({ login: m.login, name: m.name, role: m.role, password_hash }, this.now());
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw taken();
      throw e;
    }
    return memberView((await this.users.byId(id))!);
  }

  /**
   * Renames member `id`, changes their role, or turns their account off or on; turning it off ends their sessions.
   * @throws LotwatchError `not_found` for an unknown member; BadInputError when the change would leave the team
   *   without an admin who can sign in (checked under a lock, so two admins at once cannot both pass).
   */
  async update(p: { id: number; name?: string; role?: Role; disabled?: boolean }): Promise<TeamMember> {
    const row = await this.users.exclusive(async () => {
      const u = await this.users.byId(p.id);
      if (!u) throw notFound();
      const losesAdmin =
        u.role === 'admin' && u.disabled === 0 && ((p.role && p.role !== 'admin') || p.disabled === true);
      if (losesAdmin && (await this.users.activeAdmins()) <= 1)
        throw new BadInputError(
          'The team needs at least one admin who can sign in. Make another member an admin first.',
        );
      await this.users.update(
        p.id,
        {
          ...(p.name !== undefined ? { name: p.name } : {}),
          ...(p.role !== undefined ? { role: p.role } : {}),
          ...(p.disabled !== undefined ? { disabled: p.disabled ? 1 : 0 } : {}),
        },
        this.now(),
      );
      if (p.disabled === true) await this.sessions.removeForUser(p.id);
      return (await this.users.byId(p.id))!;
    });
    return memberView(row);
  }

  /**
   * Sets member `id`'s password (an admin's reset) and ends every session of theirs, so the old password's sessions
   * stop too. @throws LotwatchError `not_found` for an unknown member.
   */
  async resetPassword(id: number, password: string): Promise<void> {
    const password_hash = await hashPassword(password);
    if (!(await this.users.update(id, { password_hash }, this.now()))) throw notFound();
    const ended = await this.sessions.removeForUser(id);
    this.log.info('team member password reset by an admin', { user: id, sessionsEnded: ended });
  }

  /**
   * Changes member `id`'s own password after checking `current`; ends their other sessions (the caller's own, when
   * known through `inSession`, stays). A wrong `current` counts as a failed sign-in of their login.
   * @throws BadInputError (field `current`) for a wrong current password; LotwatchError `rate_limited` while their
   *   login waits after failed sign-ins; `not_found` for an unknown member.
   */
  async changePassword(id: number, current: string, next: string): Promise<void> {
    const u = await this.users.byId(id);
    if (!u) throw notFound();
    const now = this.now();
    const key = loginKey(u.login);
    const wait = retryAfterS(await this.throttle.get([key]), now);
    if (wait > 0)
      throw new LotwatchError('rate_limited', `Too many wrong passwords. Try again in ${wait} seconds.`, {
        retryable: true,
      });
    if (!(await passwordMatches(u.password_hash, current))) {
      await this.throttle.fail(key, (old) => afterFailure(old, now, LOGIN_FAILURES_ALLOWED));
      throw new BadInputError('Current password: this is not your password. Type it again.', {
        current: ['This is not your password. Type it again.'],
      });
    }
    await this.users.update(id, { password_hash: await hashPassword(next) }, now);
    await this.sessions.removeForUser(id, currentSession.getStore());
  }

  /**
   * A team's first start: when it has no member yet, adds the admin `login` with `password`, or with a generated
   * password that is answered (for the operator to read once). Answers null when the team already has members.
   * Two servers starting at once make one admin (the members' table is locked meanwhile).
   */
  async ensureFirstAdmin(
    login: string,
    password: string | undefined,
  ): Promise<{ login: string; password: string | null } | null> {
    const chosen = password ?? generatedPassword();
    const password_hash = await hashPassword(chosen);
    return this.users.exclusive(async () => {
      if ((await this.users.count()) > 0) return null;
      await this.users.insert({ login, name: login, role: 'admin', password_hash }, this.now());
      return { login, password: password === undefined ? chosen : null };
    });
  }
}

function notFound(): LotwatchError {
  return new LotwatchError('not_found', 'This member is no longer on the team. Reload the list of members.');
}
