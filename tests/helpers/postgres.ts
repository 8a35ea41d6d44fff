import pg from 'pg';
import { inject } from 'vitest';

/* The cluster itself (startCluster) lives with the headless shell, which starts one for the team demo. */
export { freePort, PG_MISSING, pgBinDir, startCluster, type PgCluster } from '../../src/headless/pgCluster';

let dbCount = 0;

/**
 * A new empty database on the cluster at `clusterUrl` (a test's own, so files running in parallel never share
 * tables), returned as its connection address. Named from the process id and a counter.
 * @throws the driver's error when the cluster does not answer.
 */
export async function createTestDatabase(clusterUrl: string, prefix = 't'): Promise<string> {
  const name = `${prefix}_${process.pid}_${++dbCount}_${Date.now().toString(36)}`.toLowerCase();
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's test cluster (pgGlobal.ts), or null when PostgreSQL is not installed or LOTWATCH_PG=off. */
    pgUrl: string | null;
  }
}

/**
 * A new database of its own on the run's test cluster (provided by pgGlobal.ts), or null when the run has none:
 * PostgreSQL tests then skip with PG_MISSING. Call in a hook or test.
 * @throws the driver's error when the cluster does not answer.
 */
export async function testDatabase(prefix = 't'): Promise<string | null> {
  const url = inject('pgUrl');
  return url ? createTestDatabase(url, prefix) : null;
}

/** Whether the run has a test cluster: for `describe.skipIf(!pgAvailable())` at a file's top level. */
export function pgAvailable(): boolean {
  return !!inject('pgUrl');
}

/**
 * Resolves once `cond` holds, asking again after each turn of the event loop (no timer, so no wall-clock bound): for
 * a test that waits until the server shows a transaction waiting for a lock (pg_locks).
 * @throws Error when it has not held after 5,000 turns.
 */
export async function untilTurns(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 5_000; i++) {
    if (await cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('the condition never held');
}
