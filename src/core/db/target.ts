import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DatabaseAddressError } from '../errors';

/*
 * Which database a Lotwatch process uses (docs/architecture.md "Two engines: connecting"): the desktop's SQLite
 * file in its data folder, or a team's PostgreSQL database named by its address. The address may carry a password,
 * so it is only ever shown through `redactedUrl`.
 */

/** The schemes of a PostgreSQL address, as libpq and the `pg` driver read them. */
const PG_SCHEME = /^postgres(?:ql)?:\/\//i;
/** Anything that starts like an address (`scheme://`) rather than a file path. */
const ANY_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** The query parameters that carry a secret (libpq's `password`, and the TLS key's `sslpassword`). */
const SECRET_PARAMS = ['password', 'sslpassword'];
/** What a redacted secret reads as. */
const HIDDEN = '***';

/** The environment variable naming the database when `--database` is not given. */
export const DATABASE_ENV = 'LOTWATCH_DATABASE_URL';

/** True for a PostgreSQL address Lotwatch can connect to (see `parsePostgresUrl`). */
function isPostgresUrl(url: string): boolean {
  try {
    parsePostgresUrl(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * The database of a Lotwatch process: a SQLite file (`path`, absolute, or `:memory:` in tests) or a PostgreSQL
 * database (`url`, `postgres://` or `postgresql://`, with its password if any: never log it, use `redactedUrl`).
 */
export const DatabaseTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sqlite'), path: z.string().min(1) }),
  z.object({
    kind: z.literal('postgres'),
    url: z.string().refine(isPostgresUrl, { message: 'not a PostgreSQL address Lotwatch can use' }),
  }),
]);

/** See DatabaseTargetSchema. */
export type DatabaseTarget = z.infer<typeof DatabaseTargetSchema>;

/** A PostgreSQL address taken apart, as the `pg` driver will read it (values decoded). */
export interface PostgresAddress {
  /** Host name or IP (IPv6 without brackets), or the folder of a Unix socket; '' when the driver's default. */
  host: string;
  /** TCP port, or null for the default (5432). */
  port: number | null;
  user: string;
  /** The password, decoded; '' when none is given. */
  password: string;
  database: string;
}

/**
 * Takes a PostgreSQL address apart the way the `pg` driver does (pg-connection-string): the WHATWG URL parser, an
 * empty host before a path (`postgres://user@/db?host=/var/run/postgresql`) allowed, the `host`, `port`, `user`
 * and `password` query parameters winning over the URL's parts, user and password percent-decoded.
 * @throws DatabaseAddressError (redacted address, what is wrong) for another scheme, an address that does not
 *   parse, a bad port, a broken percent-encoding, no host or socket, or no database name (Lotwatch never guesses
 *   one: the driver would otherwise fall back to the user's name and create tables in the wrong database).
 */
export function parsePostgresUrl(url: string): PostgresAddress {
  const shown = redactedUrl(url);
  const bad = (problem: string) => new DatabaseAddressError(shown, problem);
  if (!PG_SCHEME.test(url)) throw bad('is not a PostgreSQL address');
  let u: URL | null = readUrl(url);
  let noHost = false;
  if (!u) {
    // The driver's own fallback: `user:pw@/db` (a socket given as a query parameter) has an empty host.
    u = readUrl(url.replace('@/', '@placeholder.invalid/'));
    noHost = true;
  }
  if (!u)
    throw bad(
      'cannot be read as an address (a # or / in the user name or password must be percent-encoded: %23, %2F)',
    );
  const q = u.searchParams;
  let user: string;
  let password: string;
  let host: string;
  try {
    user = q.get('user') ?? decodeURIComponent(u.username);
    password = q.get('password') ?? decodeURIComponent(u.password);
    host = q.get('host') ?? decodeURIComponent(noHost ? '' : u.hostname.replace(/^\[(.+)\]$/, '$1'));
  } catch {
    throw bad('has a broken percent-encoding (a % must be followed by two hexadecimal digits)');
  }
  const portText = q.get('port') ?? u.port;
  const port = portText === '' ? null : Number(portText);
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535))
    throw bad('has a port that is not a number from 1 to 65535');
  if (!host) throw bad('names no server (a host name, or a socket folder as ?host=/var/run/postgresql)');
  // A socket folder written in the host place (%2Fvar%2Frun%2Fpostgresql) puts the whole path after it.
  const path = u.pathname.replace(/^\//, '');
  if (!path) throw bad('names no database (the part after the last /)');
  if (path.includes('/'))
    throw bad('has more than one name after the host (only the database name goes there)');
  let database: string;
  try {
    database = decodeURIComponent(path);
  } catch {
    throw bad('has a broken percent-encoding (a % must be followed by two hexadecimal digits)');
  }
  return { host, port, user, password, database };
}

/**
 * The database this process uses, from the `--database` value `arg` or else the LOTWATCH_DATABASE_URL variable of
 * `env` (the flag wins; an empty or blank value counts as not given): a `postgres://` or `postgresql://` address is
 * a PostgreSQL database; a `file://` address or any other text is the path of a SQLite file (made absolute against
 * the working folder; `:memory:` kept); nothing is `defaultPath`, the desktop's SQLite file in its data folder,
 * which the caller works out (pass `undefined` for `env` to read process.env).
 * @throws DatabaseAddressError for a PostgreSQL address that cannot be used (see `parsePostgresUrl`) and for another
 *   kind of address (`mysql://…`, `https://…`); the message shows the address without its password and what a
 *   valid one looks like.
 */
export function databaseTarget(
  arg: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  defaultPath: string,
): DatabaseTarget {
  const given = [arg, env[DATABASE_ENV]].map((v) => v?.trim()).find((v) => !!v);
  if (!given) return { kind: 'sqlite', path: resolve(defaultPath) };
  if (PG_SCHEME.test(given)) {
    parsePostgresUrl(given);
    return { kind: 'postgres', url: given };
  }
  const scheme = ANY_SCHEME.exec(given)?.[1]?.toLowerCase();
  if (scheme === 'file') {
    try {
      return { kind: 'sqlite', path: fileURLToPath(given) };
    } catch {
      throw new DatabaseAddressError(redactedUrl(given), 'is not a file address Lotwatch can read');
    }
  }
  if (scheme) throw new DatabaseAddressError(redactedUrl(given), 'is not a database Lotwatch can use');
  return { kind: 'sqlite', path: given === ':memory:' ? given : resolve(given) };
}

/**
 * `url` read by the WHATWG parser, or null when it does not parse or only parses by taking part of the user name or
 * password for something else: a raw `#` or `/` in a password ends the user part early, so the rest would be read as
 * a fragment or a path (and a password shown as one).
 */
function readUrl(url: string): URL | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const [beforeQuery = '', query = ''] = url.split(/\?(.*)/s);
  const noUser = !u.username && !u.password;
  // `user:12?rest@host/db` parses as host `user`, port 12 and a query: a ? in the password, not a real query.
  const passwordAsQuery = noUser && query.includes('@') && (u.pathname === '' || u.pathname === '/');
  if (u.hash || (noUser && beforeQuery.includes('@')) || passwordAsQuery) return null;
  return u;
}

/**
 * The address `url` with its password taken out, for every log line and error message: the password in the
 * user part and the `password` / `sslpassword` query parameters read `***`; everything else (user, host, port,
 * database, options) is kept so the reader can tell which database was meant. An address that does not parse, or
 * has an @ the parser did not read as the end of a user part (a raw `#`, `/` or `?` in a password), has everything
 * from the first `:` after the user to the last `@` hidden (so it may lose more than its password, never less), and
 * its secret parameters too. A path (no `scheme://`) is returned as it is. Throws nothing.
 */
export function redactedUrl(url: string): string {
  const m = ANY_SCHEME.exec(url);
  if (!m) return url;
  const u = readUrl(url);
  let out: string;
  // An @ the parser did not take as the end of a user part may end a password holding a raw ? or /: cut by hand.
  if (u && (u.username || u.password || !url.includes('@'))) {
    if (u.password) u.password = HIDDEN;
    out = u.toString();
  } else {
    // The user part ends at the last @ before the query, or, when none is there, at the last @ of all (a raw ? in
    // the password): an address that does not parse may lose more than its password here, never less.
    const start = m[0].length;
    const queryAt = url.indexOf('?', start);
    const head = queryAt < 0 ? url : url.slice(0, queryAt);
    const at = head.lastIndexOf('@') >= start ? head.lastIndexOf('@') : url.lastIndexOf('@');
    const colon = at >= start ? url.slice(start, at).indexOf(':') : -1;
    out = colon < 0 ? url : `${url.slice(0, start + colon)}:${HIDDEN}${url.slice(at)}`;
  }
  // The query is rewritten by hand so that every other parameter keeps its spelling (a socket folder stays /x/y).
  const queryAt = out.indexOf('?');
  if (queryAt < 0) return out;
  const params = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#]*`, 'gi');
  return out.slice(0, queryAt) + out.slice(queryAt).replace(params, `$1${HIDDEN}`);
}
