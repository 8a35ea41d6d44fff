import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/core/db/migrations';

// Every migration has an upgrade test (docs/architecture.md "SQLite"): a tests/core/db/*Migration.test.ts file that
// names it (`describe('migration 70: …')`) and builds a file at the version before it (`files.at(60, …)`,
// `migrateTo(db, path, 60)` or `m.version <= 60`; the first
// migration starts from an empty file at version 0). A new migration without one fails here.

const DIR = 'tests/core/db';

/** The upgrade test files and their text. */
function upgradeTests(): { file: string; text: string }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('Migration.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(DIR, f), 'utf8') }));
}

/** The versions an upgrade test names in a describe label: `describe('migration 70: …'`. */
function namedVersions(text: string): number[] {
  return [...text.matchAll(/describe\(\s*['"`]migration (\d+):/g)].map((m) => Number(m[1]));
}

describe('upgrade tests', () => {
  it('the scan reads the label and the starting version of a test', () => {
    const text =
      "describe('migration 70: the desk', () => { migrate(db, p, MIGRATIONS.filter((m) => m.version <= 60)); });";
    expect(namedVersions(text)).toEqual([70]);
    expect(namedVersions("describe('migrations in general', () => {})")).toEqual([]);
  });

  it.each(MIGRATIONS.map((m) => [m.version, m.name] as const))(
    'migration %i (%s) has a test that upgrades a file from the version before',
    (version) => {
      const tests = upgradeTests().filter((t) => namedVersions(t.text).includes(version));
      expect(
        tests.map((t) => t.file),
        `no tests/core/db/*Migration.test.ts names "migration ${version}:"`,
      ).not.toEqual([]);
      const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === version) - 1]?.version ?? 0;
      const start =
        previous === 0
          ? /schemaVersion\(db\)\)\.toBe\(0\)/
          : new RegExp(`(m\\.version <= |files\\.at\\(|migrateTo\\(\\w+, [\\w']+, )${previous}\\b`);
      expect(
        tests.some((t) => start.test(t.text)),
        `no test of migration ${version} builds a file at version ${previous}`,
      ).toBe(true);
    },
  );
});
