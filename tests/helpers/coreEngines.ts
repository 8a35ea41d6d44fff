import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { postgresDatabase } from '../../src/core/coreDatabase';
import { openPostgres } from '../../src/core/db/pg/open';
import { PgStore } from '../../src/core/db/pg/store';
import { SqliteStore, type Store } from '../../src/core/db/store';
import { makeCore, type MakeCoreOptions, type TestCore } from './buildCore';
import type { FakeClock } from './fakeClock';
import { pgAvailable, testDatabase } from './postgres';
import { tempDir } from './tmp';

/*
 * Whole cores on either engine (docs/architecture.md "Two engines: one store"), for the tests that run one scenario
 * on the desktop's SQLite file and on a team's PostgreSQL database and expect the same outcome: a data place per
 * test (a temp folder, and on PostgreSQL a fresh database of its own on the run's cluster), cores started over it
 * and restarted over the same data, and a second connection's store over it for what another process (or a stopped
 * run) left behind.
 */

/** An engine a core test runs on; `skip` when the run has no PostgreSQL cluster (postgres.ts). */
export interface CoreEngine {
  readonly name: 'sqlite' | 'postgres';
  readonly skip: boolean;
}

/** The two engines, for `for (const engine of coreEngines()) describe.skipIf(engine.skip)(…)`. */
export function coreEngines(): CoreEngine[] {
  return [
    { name: 'sqlite', skip: false },
    { name: 'postgres', skip: !pgAvailable() },
  ];
}

/** One test's data on one engine: a folder and its database, opened by each core started over it. */
export interface EnginePlace {
  readonly engine: CoreEngine['name'];
  /** The data folder (secret.key, photos; on SQLite also lotwatch.sqlite). */
  readonly dir: string;
  /**
   * A ready core over this place's data (makeCore with `dir`, and on PostgreSQL a `database` opened for this start:
   * core owns it). A second call after the first core's dispose is an app restart over the same data.
   * @throws Error when core does not start.
   */
  start(opts: Omit<MakeCoreOptions, 'dir' | 'database' | 'db'> & { clock: FakeClock }): Promise<TestCore>;
  /**
   * A store over the same data on a second connection, as another process holds it: for a state a stopped run left
   * (a claimed alert) or an alert raised from outside. Closed with the place.
   */
  side(): Promise<Store>;
}

/**
 * Registers an afterEach (call in the describe of one engine) that disposes every core started and closes every
 * second connection opened since, newest first, and removes the folders; returns the factory of places.
 */
export function placesPerTest(engine: CoreEngine): () => Promise<EnginePlace> {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return async () => {
    const t = tempDir();
    open.push(async () => t.cleanup());
    const url = engine.name === 'postgres' ? await testDatabase('outbox') : null;
    if (engine.name === 'postgres' && !url) throw new Error('no PostgreSQL cluster in this run');
    return {
      engine: engine.name,
      dir: t.dir,
      async start(opts) {
        const database = url ? await postgresDatabase(url, { dataDir: t.dir, clock: opts.clock }) : undefined;
        const made = makeCore({ ...opts, dir: t.dir, ...(database ? { database } : {}) });
        open.push(() => made.core.dispose());
        await made.core.ready;
        return made;
      },
      async side() {
        if (url) {
          const h = await openPostgres(url, { max: 2 });
          open.push(() => h.close());
          return new PgStore(h.db);
        }
        const db = new BetterSqlite3(join(t.dir, 'lotwatch.sqlite'));
        db.pragma('busy_timeout = 5000');
        open.push(async () => void db.close());
        return new SqliteStore(db);
      },
    };
  };
}
