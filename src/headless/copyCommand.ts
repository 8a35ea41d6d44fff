import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { copyToPostgres, type CopyProgress } from '../core/db/copy';
import { parsePostgresUrl, redactedUrl } from '../core/db/target';
import { DatabaseAddressError, LotwatchError } from '../core/errors';
import { acquireDataLock } from '../core/instanceLock';
import { defaultDataDir } from './paths';

// `node out/main/headless.js copy-to-postgres` (npm run copy-to-postgres): a dealer who started on the desktop copies
// their data folder's history into the team's new PostgreSQL database (docs/architecture.md "Two engines: copying a
// desktop folder").

export const COPY_HELP = `Usage: node out/main/headless.js copy-to-postgres [--data-dir DIR] --to postgres://user:password@host:5432/name

Copies everything in a Lotwatch data folder (lots, observations, changes, saved searches, watches, alerts, the
request log, the desk's notes) into an empty PostgreSQL database, then checks that every table holds as many rows
on both sides. The data file is upgraded first, as the app would; nothing else in the folder is changed. The copy
is all or nothing: when anything fails, the PostgreSQL database is left as it was.
--data-dir is the data folder (default: the desktop app's). Quit Lotwatch on that folder first.
--to is the PostgreSQL database's address; it must hold no Lotwatch data (create a new one with createdb).`;

/** Tables of at least this many rows report how far they are every tenth of the way. */
const BIG_TABLE = 10_000;

/** Where the command writes: stdout's and stderr's lines (tests pass their own). */
export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * Runs `copy-to-postgres` with the arguments after the command's name (`argv`): copies the data folder's file into
 * the database named by `--to`, printing progress and, at the end, every table's rows and "copied N rows in T s;
 * counts match". The address is only ever shown through `redactedUrl`. Holds the data folder's lock while it runs,
 * so Lotwatch cannot run on the folder meanwhile.
 * @returns the exit code: 0 copied and checked; 1 the copy failed or was refused (one line on `out.error`, never a
 *   stack trace); 2 bad arguments (with the help text). Throws nothing.
 */
export async function copyToPostgresCommand(argv: string[], out: CommandOutput = console): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } },
    }).values;
  } catch (e) {
    out.error(`lotwatch: ${(e as Error).message}\n\n${COPY_HELP}`);
    return 2;
  }
  if (args.help) {
    out.log(COPY_HELP);
    return 0;
  }
  const url = args.to?.trim();
  if (!url) {
    out.error(`lotwatch: copy-to-postgres needs --to, the PostgreSQL database's address\n\n${COPY_HELP}`);
    return 2;
  }
  try {
    parsePostgresUrl(url);
  } catch (e) {
    out.error(`lotwatch: ${e instanceof DatabaseAddressError ? e.message : redactedUrl(url)}`);
    return 2;
  }
  const dataDir = args['data-dir'] ?? defaultDataDir();
  const sqlitePath = join(dataDir, 'lotwatch.sqlite');
  // Before the lock: taking it would create the folder.
  if (!existsSync(sqlitePath)) {
    out.error(
      `lotwatch: there is no Lotwatch data file in ${dataDir} (lotwatch.sqlite), so there is nothing to copy. ` +
        'Give the data folder with --data-dir.',
    );
    return 1;
  }
  let lock;
  try {
    lock = acquireDataLock(dataDir, { shell: 'headless', now: Date.now() });
  } catch (e) {
    out.error(`lotwatch: ${e instanceof LotwatchError ? e.message : (e as Error).message}`);
    return 1;
  }
  try {
    out.log(`Copying ${sqlitePath} to ${redactedUrl(url)}`);
    const result = await copyToPostgres({ sqlitePath, url, onProgress: progressPrinter(out) });
    const width = Math.max(...result.tables.map((t) => t.name.length));
    const total = result.tables.reduce((n, t) => n + t.rows, 0);
    out.log('');
    out.log(`${'table'.padEnd(width)}  ${'rows'.padStart(10)}`);
    for (const t of result.tables)
      out.log(`${t.name.padEnd(width)}  ${t.rows.toLocaleString('en-US').padStart(10)}`);
    out.log('');
    out.log(
      `copied ${total.toLocaleString('en-US')} rows in ${(result.ms / 1000).toFixed(1)} s; counts match`,
    );
    return 0;
  } catch (e) {
    // One line, never a stack: a LotwatchError says what happened and what to do; anything else is the bare message.
    const msg = e instanceof LotwatchError ? e.message : (e as Error).message;
    out.error(`lotwatch: ${msg.replace(/\s+/g, ' ').trim()}`);
    return 1;
  } finally {
    lock.release();
  }
}

/** Prints a line when each table is done, and every tenth of the way through a table of BIG_TABLE rows or more. */
function progressPrinter(out: CommandOutput): (p: CopyProgress) => void {
  let lastTenth = 0;
  return ({ table, done, total }) => {
    if (done === 0) {
      lastTenth = 0;
      if (total === 0) out.log(`  ${table}: no rows`);
      return;
    }
    if (done === total) {
      out.log(`  ${table}: ${total.toLocaleString('en-US')} rows`);
      return;
    }
    const tenth = Math.floor((done * 10) / total);
    if (total >= BIG_TABLE && tenth > lastTenth) {
      lastTenth = tenth;
      out.log(`  ${table}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`);
    }
  };
}
