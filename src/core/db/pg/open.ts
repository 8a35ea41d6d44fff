import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { DatabaseUnreachableError, type UnreachableReason } from '../../errors';
import { silentLogger, type Logger } from '../../log';
import type { DB } from '../schema';
import { parsePostgresUrl, redactedUrl } from '../target';

/*
 * Opening a team's PostgreSQL database (docs/architecture.md "Two engines: connecting"): one bounded pool per
 * process, values read the way the SQLite store reads them, and a first connection at open so that a wrong address
 * is said at start, in one line, rather than at the first query.
 */

/** Connections a Lotwatch process keeps at most: the watcher, a few screens and a backup, never a server's worth. */
export const DEFAULT_POOL_SIZE = 10;
/** How long opening waits for the server before saying it does not answer (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** How long an unused connection stays open (ms). */
const IDLE_TIMEOUT_MS = 30_000;

/** PostgreSQL's type ids for int8 (bigint: ms timestamps, ids, counts) and numeric. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

export interface OpenPostgresOptions {
  /** Connections at most (default DEFAULT_POOL_SIZE). */
  max?: number;
  /** How long to wait for a connection before giving up, at open and later (ms, default 10 s). */
  connectTimeoutMs?: number;
  /** Where a connection lost while idle is reported (default: nowhere); the pool replaces it by itself. */
  logger?: Logger;
}

/** An open PostgreSQL database: the driver's pool, Kysely over it, and `close` (idempotent) that ends both. */
export interface PostgresHandle {
  pool: pg.Pool;
  db: Kysely<DB>;
  close(): Promise<void>;
}

/**
 * An int8 as a JS number. Ids and ms timestamps are far below 2^53; a value above would silently lose digits, so it
 * fails the query instead (the driver turns a parser's throw into the query's error).
 * @throws RangeError for a value that is not a safe integer.
 */
export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new RangeError(`The database returned the integer ${text}, too large to read exactly as a number.`);
  return n;
}

/** A numeric as a JS number (USD amounts; the SQLite store keeps them as REAL, doubles, too). */
export function parseNumeric(text: string): number {
  return Number(text);
}

/**
 * The type parsers of one pool: int8 and numeric as numbers (parseInt8, parseNumeric), everything else as the
 * driver reads it. Per pool, so nothing else in the process that uses `pg` sees its values change.
 */
export function lotwatchTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, parseInt8);
  types.setTypeParser(NUMERIC_OID, parseNumeric);
  return types;
}

/**
 * Opens the PostgreSQL database at `url` (`postgres://` or `postgresql://`, see target.ts): a pool of at most
 * `opts.max` connections named `lotwatch` (application_name, unless the address sets its own), with int8 and numeric
 * read as numbers, and Kysely over it. One connection is made before it returns, so a database that cannot be used
 * is refused here. A connection the server drops while idle is logged (redacted address) and replaced by the pool.
 * @throws DatabaseAddressError when `url` is not a PostgreSQL address Lotwatch can use (nothing is opened).
 * @throws DatabaseUnreachableError (code `db_unreachable`) when the first connection fails: one line with the
 *   address without its password and what to check (see `unreachableError`); the pool is ended.
 */
export async function openPostgres(url: string, opts: OpenPostgresOptions = {}): Promise<PostgresHandle> {
  const { password } = parsePostgresUrl(url);
  const address = redactedUrl(url);
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const logger = opts.logger ?? silentLogger;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? DEFAULT_POOL_SIZE,
    application_name: 'lotwatch',
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    types: lotwatchTypes(),
  });
  // Without a listener, a server that drops an idle connection (a restart, a failover) would end the process.
  pool.on('error', (e) => {
    const mapped = unreachableError(address, e, { password, timeoutMs: connectTimeoutMs });
    logger.warn('database connection lost', { address, reason: mapped.reason, code: mapped.driverCode });
  });
  // A connection in use when the server goes away (a restart, a failover, a cut network) emits its error on the
  // connection itself, not the pool: without a listener of its own that would end the process. Its query fails with
  // the same error, which the caller handles; here it is only logged.
  pool.on('connect', (client) => {
    client.on('error', (e) => {
      logger.warn('database connection lost while in use', {
        address,
        code: driverCodeOf(e),
        error: e.message,
      });
    });
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw unreachableError(address, e, { password, timeoutMs: connectTimeoutMs });
  }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closing: Promise<void> | null = null;
  return {
    pool,
    db,
    // Kysely ends the pool only once it has used it: a handle closed before its first query ends it here.
    close: () =>
      (closing ??= db.destroy().then(async () => {
        if (!pool.ending) await pool.end();
      })),
  };
}

/** The driver's error code: a system error's (`ECONNREFUSED`) or PostgreSQL's SQLSTATE (`28P01`), else null. */
function driverCodeOf(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  // Node's happy-eyeballs connect (a name with an IPv4 and an IPv6 address) fails with an AggregateError.
  const inner = (e as { errors?: unknown } | null)?.errors;
  return Array.isArray(inner) && inner.length ? driverCodeOf(inner[0]) : null;
}

const TLS_CODES =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

/** What a driver's error means for someone starting Lotwatch on a team's database. */
function reasonOf(code: string | null, message: string): UnreachableReason {
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOENT': // no socket in the folder given as host
      return 'refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return 'unknown_host';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'timeout';
    case '28P01':
      return 'bad_password';
    case '28000':
      return 'refused_login';
    case '3D000':
      return 'no_database';
    case '53300':
      return 'too_many_connections';
    case '57P03':
      return 'starting';
  }
  if (code && TLS_CODES.test(code)) return 'tls';
  if (/timeout/i.test(message)) return 'timeout';
  // The server asked for a password and the address gives none.
  if (/client password must be a string|password authentication/i.test(message)) return 'bad_password';
  if (/\bSSL\b|\bTLS\b|certificate/i.test(message)) return 'tls';
  return 'other';
}

/**
 * The DatabaseUnreachableError for the driver's error `e` met while connecting to `address` (already redacted):
 * one line, "Lotwatch could not connect to the PostgreSQL database at <address>: <what happened>. <what to check>."
 * by the driver's code: ECONNREFUSED or a missing socket (is the server running, the host and port right?),
 * ENOTFOUND (the host name), a timeout or unreachable network (running, host and port, a firewall), 28P01 or a
 * password the server asked for and the address lacks (the password and its percent-encoding), 28000 (the user and
 * the server's access rules), 3D000 (the database name, or create it), 53300 (no free connections), 57P03 (starting),
 * TLS failures (sslmode and the certificate), else the driver's own words on one line. Never a stack trace; the
 * password (`opts.password`) never appears, even when the driver quoted it. Pure: no I/O.
 */
export function unreachableError(
  address: string,
  e: unknown,
  opts: { password?: string; timeoutMs?: number } = {},
): DatabaseUnreachableError {
  const code = driverCodeOf(e);
  const raw = e instanceof Error ? e.message : String(e);
  const reason = reasonOf(code, raw);
  const db = (() => {
    try {
      return parsePostgresUrl(address).database;
    } catch {
      return null;
    }
  })();
  const seconds = opts.timeoutMs ? ` within ${Math.round(opts.timeoutMs / 1000)} s` : '';
  let words = raw.replace(/\s+/g, ' ').trim();
  if (opts.password) words = words.split(opts.password).join('***');
  words = words.replace(/[.\s]+$/, '') || 'the connection failed';
  const what: Record<UnreachableReason, string> = {
    refused:
      'nothing answers at that host and port. Check that the PostgreSQL server is running and that the host and ' +
      'port (or socket folder) in the address are right.',
    unknown_host: 'the host name is not known. Check the host name in the address.',
    timeout:
      `the server did not answer${seconds}. Check that the PostgreSQL server is running, that the host and port ` +
      'are right, and that no firewall blocks the connection.',
    bad_password:
      'the server refused the password. Check the user name and password in the address (a password with @, :, / ' +
      'or # in it is written percent-encoded, @ as %40).',
    refused_login:
      'the server refused this user. Check the user name in the address, and ask the database administrator to ' +
      'allow it to connect from this computer.',
    no_database: `the server has no database${db ? ` named ${db}` : ' of that name'}. Check the database name in the address, or create the database first.`,
    too_many_connections:
      'the server has no free connections. Try again later, or ask the database administrator to raise its ' +
      'connection limit.',
    starting: 'the server is starting up or shutting down. Try again in a minute.',
    tls: `the secure connection failed (${words}). Check the sslmode in the address and the server's certificate.`,
    other: `${words}. Check that the PostgreSQL server is running and that the address is right.`,
  };
  return new DatabaseUnreachableError(
    address,
    reason,
    `Lotwatch could not connect to the PostgreSQL database at ${address}: ${what[reason]}`,
    code,
  );
}
