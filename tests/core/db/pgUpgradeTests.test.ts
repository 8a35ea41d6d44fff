import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/core/db/migrations';

// Every migration has a PostgreSQL upgrade test too (docs/architecture.md "Two engines: migrations"): a
// tests/core/db/pg/*.test.ts file that names it (`describe('migration 70: …')`) and builds a database at the version
// before it (`upgradeFrom(60, 70)`, `bothAt(60)` or `pgAt(60)`; the first migration starts from version 0). A new
// migration whose PostgreSQL form has no such test fails here, as upgradeTests.test.ts fails one without a SQLite test.

const DIR = 'tests/core/db/pg';

/** The PostgreSQL test files and their text. */
function pgTests(): { file: string; text: string }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(DIR, f), 'utf8') }));
}

/** The versions a test names in a describe label: `describe('migration 70: …'`. */
function namedVersions(text: string): number[] {
  return [...text.matchAll(/describe\(\s*['"`]migration (\d+):/g)].map((m) => Number(m[1]));
}

/** Whether `text` builds a database at `version`. */
const startsAt = (text: string, version: number) =>
  new RegExp(`(upgradeFrom|bothAt|pgAt)\\(${version}\\b`).test(text);

describe('PostgreSQL upgrade tests', () => {
  it('the scan reads the label and the starting version of a test', () => {
    const text = "describe('migration 70: the desk', () => { it('x', () => upgradeFrom(60, 70)); });";
    expect(namedVersions(text)).toEqual([70]);
    expect(startsAt(text, 60)).toBe(true);
    expect(startsAt(text, 6)).toBe(false);
  });

  it.each(MIGRATIONS.map((m) => [m.version, m.name] as const))(
    'migration %i (%s) has a PostgreSQL test that upgrades a database from the version before',
    (version) => {
      const tests = pgTests().filter((t) => namedVersions(t.text).includes(version));
      expect(
        tests.map((t) => t.file),
        `no tests/core/db/pg/*.test.ts names "migration ${version}:"`,
      ).not.toEqual([]);
      const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === version) - 1]?.version ?? 0;
      expect(
        tests.some((t) => startsAt(t.text, previous)),
        `no PostgreSQL test of migration ${version} builds a database at version ${previous}`,
      ).toBe(true);
    },
  );
});
