import { ESLint } from 'eslint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The import boundaries of docs/architecture.md "The parts", checked through the project's own ESLint config.
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [r] = await eslint.lintText(code, { filePath });
  return (r?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

describe('import boundaries', () => {
  it.each([
    ['src/core/probe.ts', "import { app } from 'electron';"],
    ['src/core/probe.ts', "import { startShell } from '../main/shell';"],
    ['src/core/probe.ts', "import { createSandbox } from '../sandbox/index';"],
    ['src/sandbox/probe.ts', "import { createCore } from '../core/app';"],
    ['src/shared/probe.ts', "import { createCore } from '../core/app';"],
    ['src/renderer/src/probe.ts', "import { createCore } from '../../core/app';"],
    ['src/renderer/src/probe.ts', "import Database from 'better-sqlite3';"],
    ['src/headless/probe.ts', "import { startShell } from '../main/shell';"],
    ['src/preload/probe.ts', "import { createCore } from '../core/app';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(true);
  });

  it.each([
    ['src/core/probe.ts', "import { ok } from '../shared/ipc/errors';"],
    ['src/headless/probe.ts', "import { createCore } from '../core/app';"],
    ['src/main/probe.ts', "import { createCore } from '../core/app';"],
    ['src/renderer/src/probe.ts', "import { ok } from '../../shared/ipc/errors';"],
    ['src/sandbox/probe.ts', "import { ok } from '../shared/ipc/errors';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(false);
  });
});

// Every SQL statement lives in src/core/db (the repositories, migrations and connection): the rest of the app talks
// to SQLite only through them. src/sandbox keeps its fake market in memory and has no SQL, so it gets no exception.
const SQL_HOME = 'src/core/db/';

/** What marks SQL in source text: a prepared or executed statement, or SQL keywords as written in a query. */
const SQL_MARKS: [string, RegExp][] = [
  ['.prepare(', /\.prepare\s*(<[^>]*>)?\s*\(/],
  ['.exec( on a database', /\b\w*(db|Db|DB|database|Database|sqlite|Sqlite)\s*\.\s*(exec|pragma)\s*\(/],
  ['SELECT … FROM', /\bSELECT\b[^;`'"]{0,400}?\bFROM\b/],
  ['INSERT INTO', /\bINSERT\s+(OR\s+\w+\s+)?INTO\b/],
  ['UPDATE … SET', /\bUPDATE\s+\w+\s+SET\b/],
  ['DELETE FROM', /\bDELETE\s+FROM\b/],
  ['CREATE TABLE/INDEX', /\bCREATE\s+(UNIQUE\s+)?(TABLE|INDEX|VIRTUAL\s+TABLE|TRIGGER)\b/],
];

/** The SQL marks found in `text` (empty when it has none). */
function sqlIn(text: string): string[] {
  return SQL_MARKS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** Every source file under `dir`, as paths relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mts|js|mjs)$/.test(f))
    .map((f) => join(dir, f).split(sep).join('/'));
}

describe('where SQL lives', () => {
  it.each([
    ["db.prepare('SELECT 1')", true],
    ['this.db.exec(`CREATE INDEX x ON lots(a)`)', true],
    ['const q = `SELECT lot_key FROM lots WHERE vin = ?`', true],
    ["run('INSERT OR IGNORE INTO alerts (a) VALUES (1)')", true],
    ["'UPDATE watches SET label = ?'", true],
    ["'DELETE FROM cache WHERE key = ?'", true],
    ['const m = /^lot\\/(.+)$/.exec(id);', false],
    ["label: 'Select a make from the list'", false],
    ['store.searches.listSearches()', false],
  ])('the detector sees SQL in %s: %s', (text, found) => {
    expect(sqlIn(text).length > 0).toBe(found);
  });

  it('no file under src/ outside src/core/db contains SQL', () => {
    const offenders = sources('src')
      .filter((f) => !f.startsWith(SQL_HOME))
      .map((f) => ({ f, marks: sqlIn(readFileSync(f, 'utf8')) }))
      .filter((x) => x.marks.length > 0)
      .map((x) => `${x.f}: ${x.marks.join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it('the repositories do hold the SQL (the scan reads real files)', () => {
    expect(sqlIn(readFileSync('src/core/db/lotsRepo.ts', 'utf8'))).toContain('SELECT … FROM');
  });
});

// Core files stay small enough to read in one sitting: split a file along its seams before it passes this.
const MAX_CORE_LINES = 450;

describe('file size', () => {
  it(`no file under src/core is longer than ${MAX_CORE_LINES} lines`, () => {
    const files = sources('src/core');
    expect(files.length).toBeGreaterThan(20);
    const long = files
      .map((f) => ({ f, lines: readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter((x) => x.lines > MAX_CORE_LINES)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(long).toEqual([]);
  });
});

// Cites point inside the repository: to docs/ or the README by section name (`docs/architecture.md "Delivery"`,
// `README.md "Tests"`), to a file by its path in the repository, or to a section of the service's specification by
// its name only (`spec "Errors"`). A path outside the repository, a file that is not there or an issue number means
// nothing to the next reader, so none may appear in the source, the tests, the scripts, the benchmarks, the configs
// or the messages the lint rules print.
const DOCS = ['docs/architecture.md', 'docs/service-contract.md', 'docs/team.md', 'README.md'] as const;

/** What marks a cite the reader cannot follow from the repository. */
const OUTSIDE_CITES: [string, RegExp][] = [
  ['DESIGN.md', /\bDESIGN\.md\b/],
  ['REAL-SERVICE.md', /\bREAL-SERVICE\.md\b/],
  ['spec/<name>.md', /\bspec\/[\w-]+\.md\b/],
  ['reference/', /\breference\//],
  ['an issue number', /\b[Ii]ssue \d+/],
];

/** The outside cites found in `text` (empty when it has none). */
function outsideCitesIn(text: string): string[] {
  return OUTSIDE_CITES.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** Every text file under `dir` (source, styles, the HTML page), as paths relative to the repository. */
function textFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mts|js|mjs|css|html)$/.test(f))
    .map((f) => join(dir, f).split(sep).join('/'));
}

/**
 * This file names what it forbids (its detectors' examples, the lint probes' file names), so it is the one file the
 * scans below leave out.
 */
const SELF = 'tests/shared/boundaries.test.ts';

/** Every file a reader may follow a cite from: src, tests, scripts, benchmarks, the configs at the root and CI's script. */
function citingFiles(): string[] {
  const configs = readdirSync('.').filter((f) => /\.config\.(ts|js|mjs|cjs)$/.test(f));
  return [...['src', 'tests', 'scripts', 'bench'].flatMap(textFiles), ...configs, '.ci/run'].filter(
    (f) => f !== SELF,
  );
}

/** The `## X` to `#### X` headings of a markdown file. */
function headingsOf(file: string): Set<string> {
  return new Set([...readFileSync(file, 'utf8').matchAll(/^#{2,4} +(.+?) *$/gm)].map((m) => m[1]!));
}

/**
 * Every `docs/<file>.md "X"` or `README.md "X"` cite in `text`, as [file, X]. Comment line breaks (`\n *`, `\n //`)
 * are read as spaces, so a cite wrapped over two lines is still found.
 */
function docCitesIn(text: string): [string, string][] {
  const flat = text.replace(/\s*\n\s*(\*(?!\/)|\/\/)?\s*/g, ' ');
  return [...flat.matchAll(/(?<![\w/.-])((?:docs\/[\w-]+|README)\.md) "([^"]+)"/g)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
}

/** The doc cites in `text` whose section is not a heading of the cited file. */
function brokenDocCites(text: string, headings: Map<string, Set<string>>): string[] {
  return docCitesIn(text)
    .filter(([file, section]) => !(headings.get(file)?.has(section) ?? false))
    .map(([file, section]) => `${file} "${section}"`);
}

/** Folders that runs write into and git ignores: a path there names an output, not a file to read. */
const OUTPUTS = ['bench/results/', 'out/', 'test-results/', '.test-output/'];

/** Every path of a file in the repository named in `text` (`scripts/start.mjs`, `src/core/app.ts`). */
function repoPathsIn(text: string): string[] {
  const re =
    /(?<![\w/.-])((?:src|tests|scripts|docs|bench|data|resources|\.ci)\/[\w./-]*\w\.(?:ts|tsx|mts|mjs|js|cjs|json|md|css|html|txt|svg|png))\b/g;
  return [...text.matchAll(re)].map((m) => m[1]!);
}

/** The paths named in `text` that are neither in the repository nor outputs. */
function missingPathsIn(text: string): string[] {
  return repoPathsIn(text).filter((p) => !existsSync(p) && !OUTPUTS.some((o) => p.startsWith(o)));
}

describe('cites point inside the repository', () => {
  it.each([
    ['// see DESIGN.md "The domain"', true],
    ['/** (REAL-SERVICE.md "History") */', true],
    ['// spec/vehicle-auction-api.md "Errors"', true],
    ['// shared/reference/real-records-field-survey.txt', true],
    ['// (issue 5 "Alerts")', true],
    ['// Issue 4 item 6', true],
    ['// docs/architecture.md "The domain"; spec "Errors"', false],
    ['// a tissue 3 layers thick', false],
    ['const api = "issues"', false],
  ])('the detector sees an outside cite in %s: %s', (text, found) => {
    expect(outsideCitesIn(text).length > 0).toBe(found);
  });

  it.each([
    ['// `scripts/electron-sqlite.mjs` fills the folder.', ['scripts/electron-sqlite.mjs']],
    ['// filled by `npm start` (scripts/start.mjs)', []],
    ["writeFileSync('bench/results/idle.json', out)", []],
    ['// see src/core/no-such-file.ts and docs/architecture.md', ['src/core/no-such-file.ts']],
    ['// a lot page (lots/view.ts) in out/renderer/index.html', []],
  ])('the path detector finds what is not there in %s', (text, missing) => {
    expect(missingPathsIn(text)).toEqual(missing);
  });

  it('the scan covers the configs, the tests, the scripts and CI, and reads real files', () => {
    const files = citingFiles();
    for (const f of [
      'eslint.config.js',
      'vitest.config.ts',
      'playwright.config.ts',
      'scripts/start.mjs',
      '.ci/run',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.startsWith('tests/core/'))).toBe(true);
    expect(files).not.toContain(SELF);
    expect(repoPathsIn(readFileSync('src/main/nativeBinding.ts', 'utf8'))).toContain('scripts/start.mjs');
  });

  it('no source, test, script, benchmark or config file cites a document outside the repository or an issue number', () => {
    const offenders = citingFiles().flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => outsideCitesIn(line).map((name) => `${f}:${i + 1}: ${name}`)),
    );
    expect(offenders).toEqual([]);
  });

  it('every file path they name is in the repository (or is an output a run writes)', () => {
    const offenders = citingFiles().flatMap((f) =>
      missingPathsIn(readFileSync(f, 'utf8')).map((p) => `${f}: ${p}`),
    );
    expect(offenders).toEqual([]);
  });

  it('every file path the docs and the README name is in the repository', () => {
    const docs = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(docs).toContain('docs/architecture.md');
    const offenders = docs.flatMap((f) => missingPathsIn(readFileSync(f, 'utf8')).map((p) => `${f}: ${p}`));
    expect(offenders).toEqual([]);
  });

  it('the messages the import rules print cite only what is in the repository', async () => {
    const [r] = await eslint.lintText("import { createSandbox } from '../sandbox/index';\nexport {};\n", {
      filePath: 'src/core/probe.ts',
    });
    const messages = (r?.messages ?? [])
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      expect(outsideCitesIn(m), m).toEqual([]);
      expect(missingPathsIn(m), m).toEqual([]);
      expect(brokenDocCites(m, headings), m).toEqual([]);
    }
  });

  const headings = new Map(DOCS.map((d) => [d, headingsOf(d)] as const));

  it('the docs have the headings the scan reads (the scan reads real files)', () => {
    expect(headings.get('docs/architecture.md')).toContain('The domain');
    expect(headings.get('docs/service-contract.md')).toContain('Sale results');
    expect(headings.get('README.md')).toContain('Tests');
    expect(docCitesIn('/**\n * (docs/architecture.md "One contract,\n * two shells")\n */')).toEqual([
      ['docs/architecture.md', 'One contract, two shells'],
    ]);
    expect(
      brokenDocCites(
        '// docs/architecture.md "The domain", docs/service-contract.md "No such part", README.md "Tests"',
        headings,
      ),
    ).toEqual(['docs/service-contract.md "No such part"']);
  });

  it('every docs/architecture.md "X", docs/service-contract.md "X" and README.md "X" cited under src/ is a heading of that file', () => {
    const files = textFiles('src');
    const cited = files.flatMap((f) => docCitesIn(readFileSync(f, 'utf8')));
    expect(cited.length).toBeGreaterThan(50);
    const broken = files.flatMap((f) =>
      brokenDocCites(readFileSync(f, 'utf8'), headings).map((c) => `${f}: ${c}`),
    );
    expect(broken).toEqual([]);
  });

  it('and so is every one cited in the tests, scripts, benchmarks and configs', () => {
    const files = citingFiles().filter((f) => !f.startsWith('src/'));
    expect(files.flatMap((f) => docCitesIn(readFileSync(f, 'utf8'))).length).toBeGreaterThan(10);
    const broken = files.flatMap((f) =>
      brokenDocCites(readFileSync(f, 'utf8'), headings).map((c) => `${f}: ${c}`),
    );
    expect(broken).toEqual([]);
  });
});

// The domain modules of src/core (docs/architecture.md "The parts"), in the order app.ts builds them: a module may
// import only modules before it, and of the repositories (src/core/db/*Repo.ts) only those it declares here. The
// layers below the modules (the watcher, the client, the database, the pure rooms) import no module at all.
const MODULES: readonly (readonly [name: string, repos: readonly string[]])[] = [
  ['lots', ['lotsRepo', 'libraryRepo', 'watchesRepo', 'deskRepo']],
  ['explore', ['cacheRepo', 'requestsRepo']],
  ['desk', ['lotsRepo', 'deskRepo', 'compsRepo', 'marketCompsRepo', 'watchesRepo']],
  ['watchlist', ['watchesRepo', 'lotsRepo']],
  ['searches', ['searchesRepo', 'alertsRepo']],
  ['channels', ['channelsRepo', 'alertsRepo', 'requestsRepo']],
  ['inbox', ['alertsRepo', 'deskRepo', 'lotsRepo']],
  ['demo', ['searchesRepo', 'watchesRepo', 'cacheRepo', 'callWatchesRepo']],
  ['settings', ['settingsRepo']],
];
const BELOW_MODULES = [
  'src/core/watch/',
  'src/core/api/',
  'src/core/db/',
  'src/core/diff/',
  'src/core/alerts/',
];

/** The relative imports of a source text (static and type-only, and `import('…')`), as written. */
function relativeImportsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm)].map(
    (m) => m[1]!,
  );
}

/** `spec` as imported from `file`, as a repository path without extension (`src/core/db/lotsRepo`). */
function resolveImport(file: string, spec: string): string {
  return join(file, '..', spec)
    .split(sep)
    .join('/')
    .replace(/\.(ts|js)$/, '');
}

/** What is wrong with the imports of `file` (a path under src/core) given its text: one line per bad import. */
function layeringViolations(file: string, text: string): string[] {
  const index = MODULES.findIndex(([m]) => file.startsWith(`src/core/${m}/`));
  const below = BELOW_MODULES.some((p) => file.startsWith(p));
  const out: string[] = [];
  for (const spec of relativeImportsOf(text)) {
    const target = resolveImport(file, spec);
    const to = MODULES.findIndex(([m]) => target.startsWith(`src/core/${m}/`));
    if (to >= 0 && below)
      out.push(`${file}: the layer below the modules imports the ${MODULES[to]![0]} module (${spec})`);
    if (index < 0) continue;
    const [name, repos] = MODULES[index]!;
    if (to > index) out.push(`${file}: module ${name} imports ${MODULES[to]![0]}, built after it (${spec})`);
    const repo = /^src\/core\/db\/(\w+Repo)$/.exec(target)?.[1];
    if (repo && !repos.includes(repo))
      out.push(`${file}: module ${name} imports ${repo}, not one of its repositories`);
    if (target === 'src/core/db/store' || target === 'src/core/db/connection') {
      out.push(
        `${file}: module ${name} imports ${target}, which reaches every repository (declare the ones it uses)`,
      );
    }
  }
  return out;
}

describe('domain modules import downward and only their own repositories', () => {
  it.each([
    ['src/core/lots/service.ts', "import type { AlertsRepo } from '../db/alertsRepo';", true],
    ['src/core/lots/service.ts', "import type { LotsRepo } from '../db/lotsRepo';", false],
    ['src/core/lots/handlers.ts', "import type { Store } from '../db/store';", true],
    ['src/core/lots/service.ts', "import type { InboxService } from '../inbox/service';", true],
    ['src/core/inbox/handlers.ts', "import type { WatchlistService } from '../watchlist/service';", false],
    ['src/core/watch/polls.ts', "import { SearchesService } from '../searches/service';", true],
    ['src/core/watch/polls.ts', "import { LotsRepo } from '../db/lotsRepo';", false],
    ['src/core/desk/service.ts', "import type { LotRow } from '../../shared/ipc/contract';", false],
  ])('the check sees a bad import in %s: %s -> %s', (file, code, bad) => {
    expect(layeringViolations(file, code).length > 0).toBe(bad);
  });

  it('every module folder exists, and the check reads real imports', () => {
    for (const [m] of MODULES) expect(sources(`src/core/${m}`).length, m).toBeGreaterThan(0);
    const text = readFileSync('src/core/lots/service.ts', 'utf8');
    expect(relativeImportsOf(text).map((s) => resolveImport('src/core/lots/service.ts', s))).toContain(
      'src/core/db/lotsRepo',
    );
  });

  it('no file under src/core breaks the layering', () => {
    const offenders = sources('src/core').flatMap((f) => layeringViolations(f, readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('src/core/handlers is gone: every handler lives in its module', () => {
    expect(sources('src/core').filter((f) => f.startsWith('src/core/handlers/'))).toEqual([]);
  });
});

describe('lint zones of the core: modules downward, pure rooms pure', () => {
  it.each([
    ['src/core/lots/probe.ts', "import { InboxService } from '../inbox/service';"],
    ['src/core/searches/probe.ts', "import { DemoService } from '../demo/service';"],
    ['src/core/watch/probe.ts', "import { LotsService } from '../lots/service';"],
    ['src/core/db/probe.ts', "import { request } from 'undici';"],
    ['src/core/diff/probe.ts', "import Database from 'better-sqlite3';"],
    ['src/core/diff/probe.ts', "import { LotsRepo } from '../db/lotsRepo';"],
    ['src/core/alerts/probe.ts', "import { readFileSync } from 'node:fs';"],
    ['src/core/alerts/probe.ts', "import { createApiClient } from '../api/client';"],
    ['src/core/alerts/probe.ts', "import { request } from 'node:http';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(true);
  });

  it.each([
    ['src/core/inbox/probe.ts', "import { WatchlistService } from '../watchlist/service';"],
    ['src/core/lots/probe.ts', "import { WatchEngine } from '../watch/engine';"],
    ['src/core/alerts/probe.ts', "import { diffLot } from '../diff';"],
    ['src/core/db/probe.ts', "import { readFileSync } from 'node:fs';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(false);
  });
});
