import pg from 'pg';
import { afterEach } from 'vitest';
import type { Clock } from '../../../src/core/clock';
import type { Logger } from '../../../src/core/log';
import { silentLogger } from '../../../src/core/log';
import {
  dedicatedConnection,
  startLeadership,
  type Leadership,
  type LeadershipDeps,
} from '../../../src/core/team/leader';

/*
 * What the team tests share: a seat (startLeadership) on a test database whose connection a test can refuse (the
 * database gone), ended when the test ends; ending a backend as a crash ends it; and waiting on a condition.
 */

/** An address where nothing listens: connecting fails at once (ECONNREFUSED), as a database that is gone. */
export const NOWHERE = 'postgres://lotwatch@127.0.0.1:1/gone';

/** Registers an afterEach that stops every seat made since; returns the seat factory. */
export function seatsPerTest(): (
  url: string,
  over: Partial<LeadershipDeps> & { clock: Clock; gone?: () => boolean },
) => Promise<Leadership> {
  const open: Leadership[] = [];
  afterEach(async () => {
    for (const s of open.splice(0).reverse()) await s.stop();
  });
  return async (url, over) => {
    const log: Logger = over.log ?? silentLogger;
    const s = await startLeadership({
      connect: () => dedicatedConnection(over.gone?.() ? NOWHERE : url, 'lotwatch-team-test', log),
      onLead: async () => {},
      onLose: async () => {},
      log,
      retryMs: 5_000,
      ...over,
    });
    open.push(s);
    return s;
  };
}

/**
 * Ends the backend `pid` from another connection, as PostgreSQL ends the session of a process killed outright (its
 * socket closed): its session locks are freed and its client sees the connection end.
 */
export async function endBackend(url: string, pid: number | null): Promise<void> {
  if (pid === null) throw new Error('no backend to end');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await c.end();
  }
}

/** Resolves once `cond` holds, asking again after each turn of the event loop; throws after `ms` of real time. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setImmediate(r));
  }
}
