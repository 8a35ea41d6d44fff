// The storage load run: the browser shell in Demo mode at --demo-speed 600 on a fresh data folder, 500 watches and
// 50 saved searches, 7 simulated days; every simulated day it prints the data file's size, the backups' total size,
// row counts per table and, where SQLite's dbstat is available, the bytes each table and index takes.
//
//   npm run bench:storage                         (builds first, then the defaults below)
//   node bench/storage/load.mjs [--days 7] [--speed 600] [--watches 500] [--searches 50] [--label after] [--keep]
//                               [--quota 100000000] [--headless path/to/out/main/headless.js]
//
// --quota sets the Demo plan (LOTWATCH_DEMO_QUOTA, requests per 30 days) so the watcher is not starved at 600x;
// --headless runs another build (an older checkout's, for a before/after comparison).
// The numbers go to stdout and to bench/results/storage-<label>.json. Targets (README "Your data and its backups"):
// data file under 150 MB and backups under 4x the data file after 7 days. Wall time: days x 86,400 s / speed
// (about 17 minutes for 7 days at 600x) plus the setup. Not a test: its numbers depend on the machine's speed.

import BetterSqlite3 from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    days: { type: 'string', default: '7' },
    speed: { type: 'string', default: '600' },
    watches: { type: 'string', default: '500' },
    searches: { type: 'string', default: '50' },
    label: { type: 'string', default: 'run' },
    quota: { type: 'string', default: '100000000' },
    headless: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const DAYS = Number(args.days);
const SPEED = Number(args.speed);
const WATCHES = Number(args.watches);
const SEARCHES = Number(args.searches);
const MB = 1024 * 1024;
const TARGET_FILE_MB = 150;
const TARGET_BACKUP_FACTOR = 4;

const headless = resolve(args.headless ?? join(root, 'out/main/headless.js'));
if (!existsSync(headless)) {
  console.error(
    'bench:storage: out/main/headless.js is missing; run `npm run build` (electron-vite build) first.',
  );
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'lotwatch-storage-bench-'));
const dbPath = join(dataDir, 'lotwatch.sqlite');
console.log(`data folder: ${dataDir}`);

/** Starts the shell and resolves with its address and token once it printed them. */
function startShell() {
  return new Promise((res, rej) => {
    const p = spawn(
      process.execPath,
      [headless, '--data-dir', dataDir, '--demo-speed', String(SPEED), '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        // The Demo plan's 100,000 requests a month would starve 550 targets at 600x; the run measures storage, not pacing.
        env: { ...process.env, LOTWATCH_DEMO_QUOTA: args.quota },
      },
    );
    let out = '';
    p.stderr.on('data', (d) => process.stderr.write(`[shell] ${d}`));
    p.stdout.on('data', (d) => {
      out += d;
      const m = /Open: (http:\/\/[^/\s]+)\/\?token=(\S+)/.exec(out);
      if (m) res({ p, base: m[1], token: m[2] });
    });
    p.once('exit', (code) => rej(new Error(`the shell exited with ${code} before it served: ${out}`)));
  });
}

const shell = await startShell();

/** Calls a contract method over HTTP with the run's token; throws the error envelope's message. */
async function rpc(method, input) {
  const r = await fetch(`${shell.base}/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shell.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input ?? {}),
  });
  const body = await r.json();
  if (!body.ok) throw new Error(`${method}: ${body.error.code}: ${body.error.message}`);
  return body.data ?? body.value;
}

const MAKES = ['TOYOTA', 'HONDA', 'FORD', 'CHEVROLET', 'NISSAN', 'HYUNDAI', 'KIA', 'JEEP', 'RAM', 'DODGE'];

const marketNow0 = (await rpc('app.info')).clock.now;

// 500 watches: open lots of ten makes, soonest auctions first, so the week sees them sell.
const wall0 = Date.now();
const chosen = new Map();
for (const make of MAKES) {
  let cursor;
  let taken = 0;
  while (taken < Math.ceil(WATCHES / MAKES.length) && chosen.size < WATCHES) {
    const page = await rpc('vehicles.search', { params: { make }, ...(cursor ? { cursor } : {}) });
    for (const lot of page.lots) {
      if (lot.outcome !== 'open' || chosen.has(lot.lot_key)) continue;
      chosen.set(lot.lot_key, lot);
      taken++;
    }
    cursor = page.meta?.next_cursor ?? undefined;
    if (!cursor) break;
  }
}
let watched = 0;
for (const lot of chosen.values()) {
  try {
    await rpc('watchlist.add', { target: lot.vin ?? lot.lot_number, label: '' });
    watched++;
  } catch (e) {
    if (!/already/i.test(e.message)) console.warn(`watch ${lot.lot_key}: ${e.message}`);
  }
}
// 50 saved searches: a make, model-free, over year bands, every 30 market minutes, 5 pages a run.
let searches = 0;
for (let i = 0; i < SEARCHES; i++) {
  const make = MAKES[i % MAKES.length];
  const from = 2006 + (Math.floor(i / MAKES.length) % 5) * 4;
  await rpc('searches.create', {
    name: `${make} ${from}-${from + 3}`,
    params: { make, year_from: from, year_to: from + 3 },
    schedule: '*/30 * * * *',
    max_pages: 5,
  });
  searches++;
}
console.log(
  `set up ${watched} watches and ${searches} saved searches in ${((Date.now() - wall0) / 1000).toFixed(0)} s`,
);

/** Bytes the files of a folder take, a file under several names (hard links) counted once. */
function dirBytes(dir) {
  let n = 0;
  const seen = new Set();
  try {
    for (const f of readdirSync(dir)) {
      const st = statSync(join(dir, f));
      if (seen.has(st.ino)) continue;
      seen.add(st.ino);
      n += st.size;
    }
  } catch {
    // No backups yet.
  }
  return n;
}
const size = (p) => (existsSync(p) ? statSync(p).size : 0);

/** One day's numbers: sizes in bytes, rows per table, and bytes per table and index where dbstat exists. */
function sample(day) {
  const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'lots_fts_%' ORDER BY name",
      )
      .all()
      .map((r) => r.name);
    const rows = {};
    for (const t of tables) rows[t] = db.prepare(`SELECT count(*) AS n FROM "${t}"`).get().n;
    let bytes = null;
    try {
      bytes = Object.fromEntries(
        db
          .prepare('SELECT name, sum(pgsize) AS b FROM dbstat GROUP BY name ORDER BY b DESC LIMIT 12')
          .all()
          .map((r) => [r.name, r.b]),
      );
    } catch {
      // This SQLite has no dbstat table.
    }
    const backups = dirBytes(join(dataDir, 'backups'));
    const backupFiles = existsSync(join(dataDir, 'backups'))
      ? readdirSync(join(dataDir, 'backups')).length
      : 0;
    const requests = rows.request_log ?? 0;
    return {
      day,
      file: size(dbPath),
      wal: size(`${dbPath}-wal`),
      backups,
      backupFiles,
      requests,
      rows,
      bytes,
    };
  } finally {
    db.close();
  }
}

function print(s) {
  const mb = (b) => (b / MB).toFixed(1);
  console.log(
    `day ${s.day}: data file ${mb(s.file)} MB (+WAL ${mb(s.wal)} MB), backups ${mb(s.backups)} MB in ${s.backupFiles} files`,
  );
  console.log(
    `  rows: ${Object.entries(s.rows)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  if (s.bytes)
    console.log(
      `  MB: ${Object.entries(s.bytes)
        .map(([t, b]) => `${t} ${mb(b)}`)
        .join(', ')}`,
    );
}

// Days are counted on the market's clock from the shell's first answer (app.info), whatever the setup took.
const samples = [];
const marketNow = async () => (await rpc('app.info')).clock.now;
const start = marketNow0;
for (let day = 1; day <= Math.ceil(DAYS); day++) {
  const at = start + Math.min(day, DAYS) * 86_400_000;
  for (let now = await marketNow(); now < at; now = await marketNow()) {
    await new Promise((r) => setTimeout(r, Math.min(5_000, Math.max(50, (at - now) / SPEED))));
  }
  const s = sample(Math.min(day, DAYS));
  samples.push(s);
  print(s);
}

// Stop the shell as Ctrl+C does, then the final numbers of the closed file.
shell.p.kill('SIGINT');
await new Promise((r) => shell.p.once('exit', r));
const last = sample(DAYS);
samples.push({ ...last, day: `${DAYS} (closed)` });
print(samples.at(-1));
const fileOk = last.file / MB < TARGET_FILE_MB;
const backupsOk = last.backups < TARGET_BACKUP_FACTOR * last.file;
console.log(
  `targets: data file ${(last.file / MB).toFixed(1)} MB < ${TARGET_FILE_MB} MB ${fileOk ? 'met' : 'MISSED'}; ` +
    `backups ${(last.backups / MB).toFixed(1)} MB < ${TARGET_BACKUP_FACTOR}x the file ${backupsOk ? 'met' : 'MISSED'}`,
);
const resultsFile = join(root, 'bench/results', `storage-${args.label}.json`);
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(
  resultsFile,
  JSON.stringify(
    { label: args.label, days: DAYS, speed: SPEED, watches: watched, searches, samples },
    null,
    2,
  ),
);
console.log(`results: ${resultsFile}`);
if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
process.exit(fileOk && backupsOk ? 0 : 1);
