import { sql, type Selectable } from 'kysely';
import type { Role } from '../../../shared/team';
import type { SignInThrottleTable, UsersTable } from '../schema';
import { equalsNoCase, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/*
 * A team's accounts in its database (docs/architecture.md "A team on one server"): members (`users`), signed-in
 * browsers (`user_sessions`) and the sign-in throttle (`sign_in_throttle`). Only a team server uses them; the
 * tables exist, empty, in the desktop's file so both engines keep one schema. Every method throws only the driver's
 * errors (a second member with the same login: PostgreSQL's unique violation, code 23505).
 */

/** A member as stored: `role` one of ROLES, `disabled` 1 when an admin turned the account off, times in ms. */
export type UserRow = Omit<Selectable<UsersTable>, 'role'> & { role: Role };

/** A signed-in browser with its member, as one lookup reads it. */
export interface SessionWithUser {
  id_hash: string;
  csrf: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user: UserRow;
}

/** The throttle state of one key (`login:<login>` or `addr:<address>`). */
export type ThrottleRow = Selectable<SignInThrottleTable>;

/** The members of a team. */
export class KyselyUsersRepo {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** Adds a member and answers its id. @throws the driver's unique violation when the login is taken (any case). */
  async insert(
    u: { login: string; name: string; role: Role; password_hash: string },
    now: number,
  ): Promise<number> {
    const r = await this.exec.db
      .insertInto('users')
      .values({ ...u, disabled: 0, created_at: now, updated_at: now, last_sign_in_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** The member whose login is `login` whatever its case, or undefined. */
  async byLogin(login: string): Promise<UserRow | undefined> {
    return (await this.exec.db
      .selectFrom('users')
      .selectAll()
      .where(equalsNoCase(this.engine, 'login', login))
      .executeTakeFirst()) as UserRow | undefined;
  }

  /** The member `id`, or undefined. */
  async byId(id: number): Promise<UserRow | undefined> {
    return (await this.exec.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) as
      UserRow | undefined;
  }

  /** Every member, in the order they were added. */
  async list(): Promise<UserRow[]> {
    return (await this.exec.db.selectFrom('users').selectAll().orderBy('id').execute()) as UserRow[];
  }

  /** How many members there are (0: a team not set up yet). */
  async count(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** How many admins can still sign in (not disabled). */
  async activeAdmins(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Changes the given fields of member `id`; answers whether it exists. */
  async update(
    id: number,
    patch: { name?: string; role?: Role; disabled?: number; password_hash?: string },
    now: number,
  ): Promise<boolean> {
    const r = await this.exec.db
      .updateTable('users')
      .set({ ...patch, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Records a successful sign-in of member `id` at `now`. */
  async signedIn(id: number, now: number): Promise<void> {
    await this.exec.db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', id).execute();
  }

  /**
   * Runs `fn` in one transaction that first locks the members' table against other writers of it (two admins
   * disabling the last two admins at once: the second sees the first's change). Other servers included.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.exec.transaction(async () => {
      if (this.engine === 'postgres') {
        await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(this.exec.db);
      }
      return fn();
    });
  }
}

/** The signed-in browsers of a team. */
export class KyselySessionsRepo {
  constructor(private readonly exec: KyselyExec) {}

  /** Stores a new session (its id already hashed). */
  async insert(s: {
    id_hash: string;
    user_id: number;
    csrf: string;
    created_at: number;
    last_seen_at: number;
    expires_at: number;
  }): Promise<void> {
    await this.exec.db.insertInto('user_sessions').values(s).execute();
  }

  /** The session whose id hashes to `idHash`, with its member, or undefined (expiry is the caller's to judge). */
  async lookup(idHash: string): Promise<SessionWithUser | undefined> {
    const r = await this.exec.db
      .selectFrom('user_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.id_hash',
        's.csrf',
        's.created_at as s_created_at',
        's.last_seen_at',
        's.expires_at',
        'u.id',
        'u.login',
        'u.name',
        'u.role',
        'u.password_hash',
        'u.disabled',
        'u.created_at',
        'u.updated_at',
        'u.last_sign_in_at',
      ])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      id_hash: r.id_hash,
      csrf: r.csrf,
      created_at: r.s_created_at,
      last_seen_at: r.last_seen_at,
      expires_at: r.expires_at,
      user: {
        id: r.id,
        login: r.login,
        name: r.name,
        role: r.role as Role,
        password_hash: r.password_hash,
        disabled: r.disabled,
        created_at: r.created_at,
        updated_at: r.updated_at,
        last_sign_in_at: r.last_sign_in_at,
      },
    };
  }

  /** Marks the session as used at `now` (its idle timeout starts again). */
  async touch(idHash: string, now: number): Promise<void> {
    await this.exec.db
      .updateTable('user_sessions')
      .set({ last_seen_at: now })
      .where('id_hash', '=', idHash)
      .execute();
  }

  /** Ends one session. */
  async remove(idHash: string): Promise<void> {
    await this.exec.db.deleteFrom('user_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Ends every session of member `userId` but `keep` (the caller's own, after a password change); answers how many. */
  async removeForUser(userId: number, keep?: string): Promise<number> {
    let q = this.exec.db.deleteFrom('user_sessions').where('user_id', '=', userId);
    if (keep !== undefined) q = q.where('id_hash', '<>', keep);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes sessions that ended (`expires_at` passed) or sat idle since before `idleSince`; answers how many. */
  async removeStale(now: number, idleSince: number): Promise<number> {
    const r = await this.exec.db
      .deleteFrom('user_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleSince)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/** The sign-in throttle's state, shared by every server of the team. */
export class KyselyThrottleRepo {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** The state of the given keys (missing keys: no failures). */
  async get(keys: readonly string[]): Promise<ThrottleRow[]> {
    if (keys.length === 0) return [];
    return this.exec.db.selectFrom('sign_in_throttle').selectAll().where('key', 'in', keys).execute();
  }

  /**
   * Records a failed sign-in for `key` atomically across servers: the row is locked (FOR UPDATE on PostgreSQL), `next`
   * computes its new state from the old one (undefined: none yet), and the result is stored and returned.
   */
  async fail(
    key: string,
    next: (old: ThrottleRow | undefined) => Omit<ThrottleRow, 'key'>,
  ): Promise<ThrottleRow> {
    return this.exec.transaction(async () => {
      await this.exec.db
        .insertInto('sign_in_throttle')
        .values({ key, failures: 0, last_failure_at: 0, locked_until: 0 })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      let q = this.exec.db.selectFrom('sign_in_throttle').selectAll().where('key', '=', key);
      if (this.engine === 'postgres') q = q.forUpdate();
      const old = await q.executeTakeFirstOrThrow();
      const row = { key, ...next(old.failures === 0 ? undefined : old) };
      await this.exec.db
        .updateTable('sign_in_throttle')
        .set({ failures: row.failures, last_failure_at: row.last_failure_at, locked_until: row.locked_until })
        .where('key', '=', key)
        .execute();
      return row;
    });
  }

  /** Forgets the failures of `key` (a successful sign-in of that login). */
  async clear(key: string): Promise<void> {
    await this.exec.db.deleteFrom('sign_in_throttle').where('key', '=', key).execute();
  }

  /** Forgets every key whose last failure is older than `before` and that no longer waits; answers how many. */
  async prune(before: number, now: number): Promise<number> {
    const r = await this.exec.db
      .deleteFrom('sign_in_throttle')
      .where('last_failure_at', '<', before)
      .where('locked_until', '<=', now)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
