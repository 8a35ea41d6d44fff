import { beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { postgresDatabase } from '../../../src/core/coreDatabase';
import { migratePgAt } from '../../../src/core/db/pg/migrate';
import {
  LEADER_RETRY_MS,
  startTeamWatch,
  type Leadership,
  type LeadershipState,
} from '../../../src/core/team/leader';
import type { ContractEvent } from '../../../src/shared/ipc/contract';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { recordingLog } from '../../helpers/log';
import { pgAvailable, testDatabase } from '../../helpers/postgres';
import { tempDir } from '../../helpers/tmp';
import { endBackend, seatsPerTest, until } from './teamHelpers';

// Several servers, one watcher (src/core/team/leader.ts): of the servers on one database exactly one holds the
// scheduler's lock and watches; when its connection ends (a kill -9 as the database sees it) it stops watching at
// once, and another server takes the lock at its next ask, within one retry on a stepped clock. A database that goes
// away pauses watching on every server, said once each, and whichever server gets the lock back watches.

const RETRY = LEADER_RETRY_MS;
const seat = seatsPerTest();
const startCore = coresPerTest();

describe.skipIf(!pgAvailable())('one watcher among a team’s servers', () => {
  let url: string;
  beforeEach(async () => {
    url = (await testDatabase('leader'))!;
    await migratePgAt(url);
  });

  /** Records onLead and onLose of one seat. */
  const calls = () => {
    const seen: string[] = [];
    return {
      seen,
      onLead: async () => void seen.push('lead'),
      onLose: async () => void seen.push('lose'),
    };
  };
  const leaders = (...seats: Leadership[]) => seats.filter((s) => s.isLeader()).length;

  it('gives the lock to exactly one server, and another takes over within one retry after its backend ends', async () => {
    const [clockA, clockB] = [new FakeClock(), new FakeClock()];
    const [a, b] = [calls(), calls()];
    const A = await seat(url, { clock: clockA, ...a });
    const B = await seat(url, { clock: clockB, ...b });
    expect([A.state(), B.state()]).toEqual(['leading', 'following']);
    expect(A.serverId).not.toBe(B.serverId);
    for (let i = 0; i < 3; i++) {
      clockA.advance(RETRY);
      clockB.advance(RETRY);
      await Promise.all([A.settled(), B.settled()]);
      expect(leaders(A, B)).toBe(1);
    }
    expect([a.seen, b.seen]).toEqual([['lead'], []]);

    // The leader's process dies: the database ends its session. A's own clock stands still (a dead process asks
    // nothing more); it only hears its connection end, and stops watching at once, before any clock moves.
    await endBackend(url, A.backendPid());
    await until(() => a.seen.length === 2, 'the old leader stops watching');
    expect(a.seen).toEqual(['lead', 'lose']);
    expect(A.state()).toBe('disconnected');
    expect(B.isLeader()).toBe(false);
    clockB.advance(RETRY);
    await B.settled();
    expect(B.state()).toBe('leading');
    expect(b.seen).toEqual(['lead']);

    // The old server comes back: it follows, and leads again only once the new leader stops.
    clockA.advance(RETRY);
    await A.settled();
    expect([A.state(), B.state()]).toEqual(['following', 'leading']);
    await B.stop();
    expect(b.seen).toEqual(['lead', 'lose']);
    clockA.advance(RETRY);
    await A.settled();
    expect(A.state()).toBe('leading');
    expect(a.seen).toEqual(['lead', 'lose', 'lead']);
  });

  it('pauses watching on every server while the database is gone, says so once each, and one server watches again when it is back', async () => {
    const clock = new FakeClock();
    const dir = tempDir();
    let gone = false;
    const servers: { name: string; core: Core; seat: Leadership; log: ReturnType<typeof recordingLog> }[] =
      [];
    for (const name of ['a', 'b']) {
      const log = recordingLog();
      const database = await postgresDatabase(url, { dataDir: dir.dir, clock });
      const { core } = await startCore({
        clock,
        database,
        dir: dir.dir,
        autoStart: false,
        demoExamples: false,
        log,
      });
      const s = await seat(url, {
        clock,
        log,
        gone: () => gone,
        onLead: () => core.startWatching(),
        onLose: () => core.stopWatching(),
      });
      servers.push({ name, core, seat: s, log });
    }
    const watching = () => servers.filter((s) => s.core.isWatching()).map((s) => s.name);
    expect(watching()).toEqual(['a']);

    // The database goes away: every session ends and no new connection is accepted.
    gone = true;
    for (const s of servers) await endBackend(url, s.seat.backendPid());
    await until(() => servers.every((s) => s.seat.state() === 'disconnected'), 'both see the loss');
    await until(() => watching().length === 0, 'the leader stops watching');
    for (let i = 0; i < 4; i++) {
      clock.advance(RETRY);
      await Promise.all(servers.map((s) => s.seat.settled()));
      expect(watching()).toEqual([]);
    }
    for (const s of servers) {
      const said = s.log.lines.filter((l) =>
        l.msg.startsWith('team: the connection to the database was lost'),
      );
      expect(said).toHaveLength(1);
      expect(said[0]!.level).toBe('warn');
    }

    gone = false;
    clock.advance(RETRY);
    await Promise.all(servers.map((s) => s.seat.settled()));
    expect(watching()).toHaveLength(1);
    expect(servers.map((s) => s.seat.state()).sort()).toEqual(['following', 'leading']);
    // The leader's loop is a fresh one that works: a run of the watch loop finishes without failing.
    const leader = servers.find((s) => s.core.isWatching())!;
    await leader.core.engine.runDue();
    expect(leader.log.lines.filter((l) => l.msg.startsWith('watch: tick failed'))).toEqual([]);
    for (const s of servers) await s.seat.stop();
    expect(watching()).toEqual([]);
    dir.cleanup();
  });
  it('runs a team server’s watcher: one server watches, events reach the other, and it takes over when the first dies', async () => {
    const clock = new FakeClock();
    const dir = tempDir();
    const servers: { core: Core; got: ContractEvent[]; states: LeadershipState[]; stop(): Promise<void> }[] =
      [];
    for (let i = 0; i < 2; i++) {
      const database = await postgresDatabase(url, { dataDir: dir.dir, clock });
      const { core } = await startCore({
        clock,
        database,
        dir: dir.dir,
        autoStart: false,
        demoExamples: false,
      });
      const got: ContractEvent[] = [];
      const states: LeadershipState[] = [];
      const watch = startTeamWatch({
        core,
        store: database.store,
        url,
        clock,
        log: recordingLog(),
        deliver: (e) => void got.push(e),
        onState: (st) => void states.push(st),
      });
      await watch.ready;
      servers.push({ core, got, states, stop: () => watch.stop() });
    }
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    expect([a.core.isWatching(), b.core.isWatching()]).toEqual([true, false]);
    expect([a.states, b.states]).toEqual([['leading'], ['following']]);
    await b.core.call('settings.update', { requestsPerDay: 70 });
    await until(
      () => a.got.some((e) => e.name === 'settings.changed' && e.payload.requestsPerDay === 70),
      'the event reaches the watching server',
    );
    // The watching server stops for good (its seat and relay leave; a kill -9 frees the same locks).
    await a.stop();
    expect(a.core.isWatching()).toBe(false);
    clock.advance(LEADER_RETRY_MS);
    await until(() => b.core.isWatching(), 'the other server watches');
    expect(b.states).toEqual(['following', 'leading']);
    await b.stop();
    expect(b.core.isWatching()).toBe(false);
    dir.cleanup();
  });
});
