import { sql, type Expression, type InsertQueryBuilder, type RawBuilder } from 'kysely';

/*
 * The few places where the SQL of the Kysely repositories differs between the engines (docs/architecture.md "Two
 * engines: one store"): each is one function that switches on the engine, so a repository says what it means
 * (an upsert, a JSON field, a BLOB, a case-blind or byte-order comparison) and never spells either dialect itself.
 */

/** The engine a Kysely repository runs on: the desktop's SQLite file or a team's PostgreSQL database. */
export type Engine = 'sqlite' | 'postgres';

/**
 * Makes `q` (an INSERT of one row into a table keyed by `keys`) an upsert. With `update` (columns) or `nulls`
 * (columns), a row whose key exists is updated instead: each `update` column takes the inserted value
 * (`excluded.<column>`, same words on both engines) and each `nulls` column becomes NULL; the other columns keep
 * their values. With neither, the row is left as it is and nothing is written: SQLite's `INSERT OR IGNORE` (as the
 * SQLite repositories write it: it also skips a row that breaks a NOT NULL or CHECK constraint), PostgreSQL's
 * `ON CONFLICT (keys) DO NOTHING` (which skips only a key already present; another constraint's violation throws).
 */
export function upsert<DB, TB extends keyof DB & string, O>(
  engine: Engine,
  q: InsertQueryBuilder<DB, TB, O>,
  keys: readonly (keyof DB[TB] & string)[],
  update: readonly (keyof DB[TB] & string)[] = [],
  nulls: readonly (keyof DB[TB] & string)[] = [],
): InsertQueryBuilder<DB, TB, O> {
  if (update.length === 0 && nulls.length === 0) {
    switch (engine) {
      case 'sqlite':
        return q.orIgnore();
      case 'postgres':
        return q.onConflict((oc) => oc.columns(keys).doNothing());
    }
  }
  const set: Record<string, RawBuilder<unknown>> = {};
  for (const c of update) set[c] = sql`excluded.${sql.ref(c)}`;
  for (const c of nulls) set[c] = sql`NULL`;
  // The set's columns are the table's own (the parameters' types say so); Kysely cannot see it through the Record.
  return q.onConflict((oc) => oc.columns(keys).doUpdateSet(set as never));
}

/**
 * The text of the top-level field `key` of the JSON document in `doc` (a TEXT column), NULL when the field is
 * missing or null: SQLite's `json_extract(doc, '$.key')`, PostgreSQL's `doc::json ->> 'key'`. Both throw on text
 * that is not JSON. A field holding a number or boolean comes back as that value on SQLite and as its text on
 * PostgreSQL; the repositories read only string fields this way.
 */
export function jsonText(engine: Engine, doc: Expression<string>, key: string): RawBuilder<string | null> {
  switch (engine) {
    case 'sqlite':
      return sql<string | null>`json_extract(${doc}, ${`$.${key}`})`;
    case 'postgres':
      return sql<string | null>`(${doc}::json ->> ${key})`;
  }
}

/**
 * A BLOB (SQLite) or BYTEA (PostgreSQL) value as read by the driver, as a Buffer. better-sqlite3 reads a BLOB as a
 * Buffer; `pg` reads a BYTEA as a Buffer with its default parsers, and as PostgreSQL's hex text (`\x…`) when a
 * pool's parsers leave it as text. Writing needs no conversion: both drivers bind a Buffer as the column's bytes.
 * @throws TypeError for any other value (the column is not a BLOB/BYTEA).
 */
export function blobOf(engine: Engine, value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  switch (engine) {
    case 'sqlite':
      break;
    case 'postgres':
      if (typeof value === 'string' && value.startsWith('\\x')) return Buffer.from(value.slice(2), 'hex');
      break;
  }
  throw new TypeError(`A ${engine} BLOB column returned a ${typeof value}, not bytes.`);
}

/**
 * `column = value` compared without case, as the SQLite store compares make and model: SQLite's
 * `column = value COLLATE NOCASE` (ASCII letters only fold), PostgreSQL's `lower(column) = lower(value)` (every
 * letter folds; the index `lots_make_model` is on `lower(make), lower(model)`). The two differ only for non-ASCII
 * letters ("Š" = "š" on PostgreSQL alone).
 */
export function equalsNoCase(engine: Engine, column: string, value: string): RawBuilder<boolean> {
  switch (engine) {
    case 'sqlite':
      return sql<boolean>`${sql.ref(column)} = ${value} COLLATE NOCASE`;
    case 'postgres':
      return sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`;
  }
}

/**
 * A TEXT column to sort by in byte order, as SQLite's default BINARY collation sorts: the column itself on SQLite;
 * on PostgreSQL `column COLLATE "C"`, so the order does not depend on the server's locale (en_US would put "b"
 * before "C").
 */
export function byteOrder(engine: Engine, column: string): RawBuilder<string> {
  switch (engine) {
    case 'sqlite':
      return sql<string>`${sql.ref(column)}`;
    case 'postgres':
      return sql<string>`${sql.ref(column)} COLLATE "C"`;
  }
}
