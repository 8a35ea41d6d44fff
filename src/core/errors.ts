import type { ErrorCode, ErrorPayload } from '../shared/ipc/errors';

/**
 * Base class of every error Lotwatch raises on purpose. `code` is stable (the UI maps it to a message);
 * `message` says what happened and what to do; `retryable` tells whether the same call may succeed later.
 */
export class LotwatchError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly fields?: Record<string, string[]>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { retryable?: boolean; fields?: Record<string, string[]>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = opts.retryable ?? false;
    if (opts.fields) this.fields = opts.fields;
  }

  /** The payload that may cross the process boundary: no stack, no cause. */
  toPayload(): ErrorPayload {
    const p: ErrorPayload = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.fields) p.fields = this.fields;
    return p;
  }
}

/** Input to a contract method or a core function failed validation; `fields` names each bad field. */
export class BadInputError extends LotwatchError {
  constructor(message: string, fields?: Record<string, string[]>) {
    super('bad_input', message, fields ? { fields } : {});
  }
}

/** The database file was written by a newer Lotwatch; it is left untouched. */
export class DatabaseFromFutureError extends LotwatchError {
  /**
   * `path`: the data file, or for a team's PostgreSQL database (`engine` 'postgres') its address without the
   * password; `fileVersion` the schema it holds, `supportedVersion` the newest this build knows.
   */
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly supportedVersion: number,
    readonly engine: 'sqlite' | 'postgres' = 'sqlite',
  ) {
    super(
      'db_from_future',
      engine === 'postgres'
        ? `The PostgreSQL database ${path} was written by a newer version of Lotwatch (schema ${fileVersion}; this ` +
            `version understands up to ${supportedVersion}). It was not changed. Update Lotwatch here to the ` +
            `version the team's other servers run.`
        : `The data file ${path} was written by a newer version of Lotwatch (schema ${fileVersion}; this version ` +
            `understands up to ${supportedVersion}). It was not changed. Update Lotwatch, or choose another data folder.`,
    );
  }
}

/**
 * What is wrong with the data file (docs/architecture.md "Data safety"): `empty` (0 bytes, lost by a disk or sync
 * tool), `damaged` (SQLite's integrity check failed, or SQLITE_CORRUPT / SQLITE_NOTADB), `readonly` (the file or its
 * folder cannot be written), `full` (no disk space), `io` (the disk failed a read or write), `unopenable` (anything
 * else: the native module, the path).
 */
export type DatabaseProblem = 'empty' | 'damaged' | 'readonly' | 'full' | 'io' | 'unopenable';

/**
 * The database could not be opened, read or written (missing native module, empty or damaged file, no permission,
 * full disk). The message says what happened and what to do; `latestBackup` is the newest backup's path (null when
 * there is none or it does not apply), so a shell can offer to restore it.
 */
export class DatabaseUnavailableError extends LotwatchError {
  readonly problem: DatabaseProblem;
  readonly latestBackup: string | null;

  constructor(
    message: string,
    cause?: unknown,
    opts: { problem?: DatabaseProblem; latestBackup?: string | null; retryable?: boolean } = {},
  ) {
    super('db_unavailable', message, { cause, retryable: opts.retryable ?? false });
    this.problem = opts.problem ?? 'unopenable';
    this.latestBackup = opts.latestBackup ?? null;
  }
}

/**
 * A database address Lotwatch cannot use (docs/architecture.md "Two engines: connecting"), from `--database` or
 * LOTWATCH_DATABASE_URL: not a PostgreSQL address it can read, or another kind of database. `address` is already
 * redacted (no password); `problem` says what is wrong in a few words ("names no database"). The message shows what
 * a valid address looks like. Code `bad_input`: the same address fails the same way until it is corrected.
 */
export class DatabaseAddressError extends LotwatchError {
  constructor(
    readonly address: string,
    readonly problem: string,
  ) {
    super(
      'bad_input',
      `The database address ${address} ${problem}. Use a PostgreSQL address such as ` +
        'postgres://user:password@host:5432/lotwatch (postgresql:// works too; a password with @, :, / or # in ' +
        'it is written percent-encoded, so @ becomes %40), or the path of a SQLite file.',
    );
  }
}

/**
 * Why a PostgreSQL database could not be reached at start, as `mapUnreachable` (db/pg/open.ts) reads the driver's
 * error: nothing listens (`refused`), the host name is unknown (`unknown_host`), no answer in time (`timeout`), the
 * password was refused (`bad_password`), the role or the login is refused (`refused_login`), the database does not
 * exist (`no_database`), the server is full (`too_many_connections`) or still starting (`starting`), a TLS problem
 * (`tls`), or anything else (`other`).
 */
export type UnreachableReason =
  | 'refused'
  | 'unknown_host'
  | 'timeout'
  | 'bad_password'
  | 'refused_login'
  | 'no_database'
  | 'too_many_connections'
  | 'starting'
  | 'tls'
  | 'other';

/**
 * The PostgreSQL database did not answer or refused Lotwatch when it opened it (nothing was read or written). The
 * message is one line: the address without its password, what happened, and what to check. `driverCode` is the
 * driver's code (`ECONNREFUSED`, the SQLSTATE `28P01`, …) for the log, null when it gave none. Retryable: a server
 * that was down or starting may answer the next start.
 */
export class DatabaseUnreachableError extends LotwatchError {
  constructor(
    readonly address: string,
    readonly reason: UnreachableReason,
    message: string,
    readonly driverCode: string | null = null,
  ) {
    super('db_unreachable', message, {
      retryable: !['bad_password', 'refused_login', 'no_database', 'tls'].includes(reason),
    });
  }
}

/**
 * `--demo-speed` (an accelerated clock) met the real service. The fast clock only ever drives the Demo market: the
 * watcher on it would ask the real service that many times faster and spend a plan's month of requests in minutes.
 * `when` is 'start' (the data folder has Demo mode off, `dataDir` names it) or 'switch' (turning Demo mode off in
 * a fast run). Code `bad_input`: the same request fails the same way until Lotwatch runs at real time.
 */
export class DemoSpeedError extends LotwatchError {
  constructor(speed: number, when: 'start' | 'switch', dataDir = '') {
    super(
      'bad_input',
      when === 'start'
        ? `--demo-speed only applies to Demo mode, and Demo mode is off in the data folder ${dataDir}: Lotwatch ` +
            `would call the real service with your API key ${speed} times faster than real time and spend your plan's ` +
            'requests in minutes. Start without --demo-speed, or use another --data-dir for a fast demo.'
        : `Demo mode stays on: this Lotwatch runs the Demo market ${speed} times faster than real time ` +
            '(--demo-speed), and the real service must never be called at that pace. To use your API key, restart ' +
            'Lotwatch without --demo-speed.',
    );
  }
}

/**
 * A copy of a desktop data file into PostgreSQL (db/copy.ts) met a target that already holds Lotwatch data: `table`
 * is the first table found with rows. Nothing was written to the target. Code `bad_input`: the same target is
 * refused until it is emptied or another is chosen.
 */
export class CopyTargetNotEmptyError extends LotwatchError {
  constructor(
    readonly address: string,
    readonly table: string,
  ) {
    super(
      'bad_input',
      `The PostgreSQL database at ${address} already holds Lotwatch data (its table ${table} has rows), so nothing ` +
        'was copied into it and nothing in it was changed. Copy into an empty database: create a new one ' +
        '(createdb) and give its address.',
    );
  }
}

/**
 * A text value of the desktop data file holds a NUL character, which PostgreSQL's text cannot store. The copy stops
 * rather than drop or alter the value; `table`, `row` (its primary key, `id=5`) and `column` name it, and the
 * target was left as it was (the copy's transaction rolled back). Code `bad_input`.
 */
export class CopyNulTextError extends LotwatchError {
  constructor(
    readonly table: string,
    readonly row: string,
    readonly column: string,
  ) {
    super(
      'bad_input',
      `The data file's ${table} row ${row} holds a NUL character in ${column}, which PostgreSQL cannot store; ` +
        'nothing was copied (the PostgreSQL database is as it was). Remove that character from the value in the ' +
        'data file, or delete the row, then copy again.',
    );
  }
}

/**
 * After a copy into PostgreSQL, a table holds another number of rows than the desktop data file: the copy's
 * transaction was rolled back, so the target is as it was. Code `internal`: a fault of the copy, not of the input.
 */
export class CopyCountMismatchError extends LotwatchError {
  constructor(
    readonly table: string,
    readonly sqliteRows: number,
    readonly postgresRows: number,
  ) {
    super(
      'internal',
      `The copy did not check out: the table ${table} has ${sqliteRows} rows in the data file and ${postgresRows} ` +
        'in the PostgreSQL database, so the copy was undone and the PostgreSQL database is as it was. Please ' +
        'report this.',
    );
  }
}

/**
 * PostgreSQL refused a write of a copy from a desktop data file, or the connection failed during it: the copy's
 * transaction was rolled back (the server does so when the connection goes), so the target is as it was. `table`
 * is the table being copied (null before or after the tables: BEGIN, COMMIT); the message holds the server's or driver's words on one line, never a password.
 * Retryable: a dropped connection may hold next time.
 */
export class CopyFailedError extends LotwatchError {
  constructor(
    readonly address: string,
    readonly table: string | null,
    reason: string,
    cause?: unknown,
  ) {
    super(
      'db_unavailable',
      `Copying ${table ? `the table ${table}` : 'the data file'} to the PostgreSQL database at ${address} failed ` +
        `(${reason}); nothing was ` +
        'copied (the PostgreSQL database is as it was). Check the server and its log, then copy again.',
      { retryable: true, cause },
    );
  }
}

/** The SQLite result code of a better-sqlite3 `SqliteError` (e.g. `SQLITE_FULL`, `SQLITE_IOERR_WRITE`), else null. */
export function sqliteCodeOf(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** The problem a SQLite result code means for the buyer, or null for codes that are not about the file or disk. */
export function problemOfSqliteCode(code: string): DatabaseProblem | null {
  if (code.startsWith('SQLITE_FULL')) return 'full';
  if (
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_PERM') ||
    code.startsWith('SQLITE_CANTOPEN')
  )
    return 'readonly';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return 'damaged';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return null;
}

/** What a running Lotwatch says for each problem a SQLite write or read ran into (no path: core answers it). */
const RUNTIME_ADVICE: Record<Exclude<DatabaseProblem, 'empty' | 'unopenable'>, string> = {
  full:
    'Lotwatch could not save to its data file: the disk is full. Free some disk space; Lotwatch tries again by ' +
    'itself, and what it saved before is kept.',
  readonly:
    'Lotwatch cannot write to its data file: the file or its folder is read-only. Fix the permissions of the data ' +
    'folder (Settings shows where it is) so your user can write it, then restart Lotwatch.',
  io:
    'Lotwatch could not read or write its data file: the disk reported an error. Check the disk and its free space; ' +
    'if this goes on, quit Lotwatch and restore a backup (Settings, Backups).',
  damaged:
    "Lotwatch's data file is damaged. Quit Lotwatch and restore a backup: Settings, Backups, or start the browser " +
    'shell with --restore-backup latest. The damaged file is kept.',
};

/**
 * Maps an error SQLite raised while Lotwatch runs (better-sqlite3's `SqliteError` with a disk-full, read-only, I/O
 * or corruption code) to a `db_unavailable` error whose message says what to do, never "Something went wrong" or
 * "check your internet connection" (docs/architecture.md "Data safety"). Returns the error itself when it already is
 * a DatabaseUnavailableError, null for anything else (a bug, a service error).
 */
export function databaseErrorOf(e: unknown): DatabaseUnavailableError | null {
  if (e instanceof DatabaseUnavailableError) return e;
  const code = sqliteCodeOf(e);
  const problem = code ? problemOfSqliteCode(code) : null;
  if (!problem || problem === 'empty' || problem === 'unopenable') return null;
  return new DatabaseUnavailableError(RUNTIME_ADVICE[problem], e, {
    problem,
    retryable: problem === 'full' || problem === 'io',
  });
}

/** Driver codes of a database server that went away while Lotwatch ran: sockets, and PostgreSQL's shutdown class. */
const LOST_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
/** The `pg` driver's own words for a connection it lost or could not get from its pool. */
const LOST_WORDS =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection ended/i;

/**
 * Maps an error of a team's PostgreSQL store that says the server went away while Lotwatch runs (a socket code, the
 * server's shutdown SQLSTATEs, the `pg` driver's "Connection terminated") to a `db_unreachable` error whose message
 * says that watching waits and goes on by itself; null for anything else. Only for errors of store calls: a service
 * request's network failure has codes of its own (transport.ts). Source: docs/architecture.md "Two engines: one
 * store".
 */
export function connectionLostOf(e: unknown): DatabaseUnreachableError | null {
  if (e instanceof DatabaseUnreachableError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  const message = (e as { message?: unknown } | null)?.message;
  const lost =
    (typeof code === 'string' && LOST_CODES.has(code)) ||
    (typeof message === 'string' && LOST_WORDS.test(message));
  if (!lost) return null;
  return new DatabaseUnreachableError(
    '',
    'other',
    'Lotwatch lost its connection to the database server. Watching waits and tries again by itself, and goes on ' +
      'once the server answers; nothing half-done was kept. Check that the PostgreSQL server is running.',
    typeof code === 'string' ? code : null,
  );
}
