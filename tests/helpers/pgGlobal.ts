import type { TestProject } from 'vitest/node';
import { PG_MISSING, pgBinDir, startCluster } from './postgres';

/**
 * Vitest globalSetup (vitest.config.ts and the soak config): one throwaway PostgreSQL cluster for the whole run
 * (postgres.ts startCluster), provided to the tests as `pgUrl` and stopped at teardown; each test file makes its
 * own database on it (postgres.ts testDatabase). Without PostgreSQL installed, or with LOTWATCH_PG=off, it provides
 * null and says once how to install it: the SQLite half runs, the PostgreSQL half is skipped.
 * @throws the cluster's start error when PostgreSQL is installed but does not start (the run then fails at once).
 */
export default async function pgGlobal(project: TestProject): Promise<() => void> {
  if (process.env['LOTWATCH_PG'] === 'off' || !pgBinDir()) {
    if (process.env['LOTWATCH_PG'] !== 'off') console.warn(`\n${PG_MISSING}\n`);
    project.provide('pgUrl', null);
    return () => {};
  }
  const cluster = await startCluster();
  project.provide('pgUrl', cluster.url);
  // A run stopped by Ctrl-C or a crash still stops its server.
  const onExit = () => cluster.stop();
  process.once('exit', onExit);
  return () => {
    process.off('exit', onExit);
    cluster.stop();
  };
}
