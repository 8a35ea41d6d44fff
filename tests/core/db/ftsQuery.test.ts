import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { ftsExcludeOnly, ftsQuery, plainFtsQuery } from '../../../src/core/db/ftsQuery';
import { LibraryRepo } from '../../../src/core/db/libraryRepo';
import { tempDir } from '../../helpers/tmp';

// The Library's search box: whatever the buyer types becomes an FTS5 expression SQLite accepts, and `-word`, `OR`
// and "phrases" mean what a web search means by them.

/** An in-memory FTS5 table with lots_fts's tokenizer and a few titles. */
let mem: BetterSqlite3.Database;
beforeAll(() => {
  mem = new BetterSqlite3(':memory:');
  mem.exec(`CREATE VIRTUAL TABLE t USING fts5(title, vin, tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO t VALUES ('2019 AUDI A4 QUATTRO', 'WAUENAF47KA000001'), ('2018 AUDI A4', 'WAUENAF47JA000002'),
      ('2020 TOYOTA CAMRY', '4T1B11HK0LU000003'), ('2019 TOYOTA COROLLA', '2T1BURHE0KC000004'),
      ('2021 TESLA MODEL 3', '5YJ3E1EA0MF000005'), ('2021 TESLA MODEL Y 3 ROW', '5YJYGDEE0MF000006'),
      ('2017 FORD F-150 XLT', '1FTEW1EG0HF000007'), ('2016 HONDA ACCORD', '1HGCR2F30GA000008')`);
});
afterAll(() => mem.close());

const titles = (match: string): string[] =>
  (mem.prepare('SELECT title FROM t WHERE t MATCH ? ORDER BY rowid').all(match) as { title: string }[]).map(
    (r) => r.title,
  );

/** Runs an expression against the table: throws SqliteError when FTS5 refuses it. */
const run = (match: string | null): void => {
  if (match !== null) mem.prepare('SELECT count(*) FROM t WHERE t MATCH ?').get(match);
};

// Strings heavy in FTS5's own syntax, quotes, minus signs and OR, mixed with words, plus any Unicode at all.
const syntax = fc.constantFrom(
  '"',
  '“',
  '”',
  '-',
  '−',
  '*',
  '^',
  ':',
  '(',
  ')',
  '+',
  'OR',
  'AND',
  'NOT',
  'NEAR',
  'NEAR(',
  '{',
  '}',
  ',',
  ' ',
  '  ',
  '\t',
  '\n',
  "'",
  '\\',
  '\0',
);
const word = fc.constantFrom('audi', 'camry', 'model', '3', 'f-150', 'é', 'ß', 'vin', 'title', 'a4');
const hostile = fc
  .array(fc.oneof(syntax, word, fc.string({ maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 3 })), {
    maxLength: 20,
  })
  .map((parts) => parts.join(''));
const anything = fc.oneof(
  hostile,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

describe('ftsQuery: any text gives an expression SQLite accepts', () => {
  it('for ftsQuery, ftsExcludeOnly and plainFtsQuery alike', () => {
    fc.assert(
      fc.property(anything, (text) => {
        run(ftsQuery(text));
        run(ftsExcludeOnly(text));
        run(plainFtsQuery(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives null exactly when there is no letter or digit to look for', () => {
    fc.assert(
      fc.property(anything, (text) => {
        const hasWord = /[\p{L}\p{N}]/u.test(text);
        if (!hasWord)
          expect([ftsQuery(text), ftsExcludeOnly(text), plainFtsQuery(text)]).toEqual([null, null, null]);
        // A text with a word has something to search for: what to find, or only what to leave out.
        else expect(ftsQuery(text) !== null || ftsExcludeOnly(text) !== null).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ftsQuery: what the buyer typed', () => {
  it('ANDs words, each as a prefix, as before', () => {
    expect(ftsQuery('audi a4')).toBe('"audi"* AND "a4"*');
    expect(titles(ftsQuery('aud 2019')!)).toEqual(['2019 AUDI A4 QUATTRO']);
  });

  it('leaves out a -word', () => {
    expect(ftsQuery('audi -quattro')).toBe('"audi"* NOT "quattro"*');
    expect(titles(ftsQuery('audi -quattro')!)).toEqual(['2018 AUDI A4']);
    expect(titles(ftsQuery('toyota −camry')!)).toEqual(['2019 TOYOTA COROLLA']);
  });

  it('finds either side of OR, and ANDs the rest', () => {
    expect(titles(ftsQuery('camry OR corolla')!)).toEqual(['2020 TOYOTA CAMRY', '2019 TOYOTA COROLLA']);
    expect(ftsQuery('camry OR corolla 2019')).toBe('("camry"* OR "corolla"*) AND "2019"*');
    expect(titles(ftsQuery('camry OR corolla 2019')!)).toEqual(['2019 TOYOTA COROLLA']);
    expect(titles(ftsQuery('audi OR tesla -quattro -"model y"')!)).toEqual([
      '2018 AUDI A4',
      '2021 TESLA MODEL 3',
    ]);
  });

  it('matches a "quoted phrase" as written, side by side', () => {
    expect(ftsQuery('"model 3"')).toBe('"model 3"');
    expect(titles(ftsQuery('"model 3"')!)).toEqual(['2021 TESLA MODEL 3']);
    expect(titles(ftsQuery('“model 3”')!)).toEqual(['2021 TESLA MODEL 3']);
    // Not a phrase: both words anywhere.
    expect(titles(ftsQuery('model 3')!)).toEqual(['2021 TESLA MODEL 3', '2021 TESLA MODEL Y 3 ROW']);
  });

  it('keeps a hyphenated model together and reads FTS5 syntax as plain words', () => {
    expect(ftsQuery('f-150')).toBe('"f 150"*');
    expect(titles(ftsQuery('f-150')!)).toEqual(['2017 FORD F-150 XLT']);
    expect(ftsQuery('title:audi NEAR(a b) ^x "unclosed')).toBe(
      '"title audi"* AND "NEAR a"* AND "b"* AND "x"* AND "unclosed"',
    );
  });

  it('reads an OR that joins nothing as the word (Oregon)', () => {
    expect(ftsQuery('portland OR')).toBe('"portland"* AND "OR"*');
    expect(ftsQuery('OR')).toBe('"OR"*');
    expect(ftsQuery('audi OR -quattro')).toBe('("audi"* AND "OR"*) NOT "quattro"*');
    expect(ftsQuery('camry OR corolla OR accord')).toBe('("camry"* OR "corolla"* OR "accord"*)');
  });

  it('reads plain words for the fallback, without what was left out', () => {
    expect(plainFtsQuery('audi -quattro OR "a4 x')).toBe('"audi"* "a4"* "x"*');
    expect(plainFtsQuery('camry OR corolla -"le 4dr" -salvage')).toBe('"camry"* "corolla"*');
    expect(plainFtsQuery('-quattro')).toBeNull();
  });

  it('says what to leave out when only left-out words are typed', () => {
    expect(ftsQuery('-quattro -"model 3"')).toBeNull();
    expect(ftsExcludeOnly('-quattro -"model 3"')).toBe('("quattro"* OR "model 3")');
    expect(ftsExcludeOnly('audi -quattro')).toBeNull();
    expect(ftsQuery('- ... "" ()')).toBeNull();
    expect(ftsQuery('a b c d e f g h i j k l m n')!.split(' AND ')).toHaveLength(12);
  });
});

describe('LibraryRepo.find over the real lots table', () => {
  const dirs: { cleanup(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  function library(): LibraryRepo {
    const t = tempDir();
    dirs.push(t);
    const db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
    const ins =
      db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, title, normalized, raw, raw_hash, first_seen_at,
      last_observed_at) VALUES (?, 'copart', ?, ?, '{}', '{}', 'h', 0, ?)`);
    [
      '2019 AUDI A4 QUATTRO',
      '2018 AUDI A4',
      '2020 TOYOTA CAMRY',
      '2019 TOYOTA COROLLA',
      '2021 TESLA MODEL 3',
    ].forEach((title, i) => ins.run(`copart:${i + 1}`, String(i + 1), title, i));
    dirs.push({ cleanup: () => db.close() });
    return new LibraryRepo(db);
  }
  const found = (r: { rows: { title: string | null }[]; total: number } | null) =>
    r && { titles: r.rows.map((x) => x.title).sort(), total: r.total };

  it('honours -word, OR and phrases', () => {
    const lib = library();
    expect(found(lib.find('audi -quattro', 100, 0))).toEqual({ titles: ['2018 AUDI A4'], total: 1 });
    expect(found(lib.find('camry OR corolla', 100, 0))).toEqual({
      titles: ['2019 TOYOTA COROLLA', '2020 TOYOTA CAMRY'],
      total: 2,
    });
    expect(found(lib.find('"model 3"', 100, 0))?.titles).toEqual(['2021 TESLA MODEL 3']);
  });

  it('lists every other lot, most recently seen first, for left-out words only', () => {
    const r = library().find('-audi -tesla', 100, 0);
    expect(r?.rows.map((x) => x.title)).toEqual(['2019 TOYOTA COROLLA', '2020 TOYOTA CAMRY']);
    expect(r?.total).toBe(2);
  });

  it('searches plain words when SQLite refuses the expression, and lets a failing file throw', () => {
    const lib = library();
    const refused = Object.assign(new Error('fts5: syntax error'), { code: 'SQLITE_ERROR' });
    const real = lib.search.bind(lib);
    const seen: string[] = [];
    lib.search = (match, limit, offset) => {
      seen.push(match);
      if (seen.length === 1) throw refused;
      return real(match, limit, offset);
    };
    expect(found(lib.find('audi -quattro', 100, 0))?.titles).toEqual([
      '2018 AUDI A4',
      '2019 AUDI A4 QUATTRO',
    ]);
    expect(seen).toEqual(['"audi"* NOT "quattro"*', '"audi"*']);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    lib.search = () => {
      throw full;
    };
    expect(() => lib.find('audi', 100, 0)).toThrow(full);
  });

  it('answers null when there is nothing to look for, and never throws on odd text', () => {
    const lib = library();
    expect(lib.find('  -- "" ', 100, 0)).toBeNull();
    fc.assert(
      fc.property(anything, (text) => {
        lib.find(text, 5, 0);
      }),
      { numRuns: 300 },
    );
  });
});
