import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { postgresDatabase } from '../../../src/core/coreDatabase';
import { silentLogger } from '../../../src/core/log';
import {
  EVENTS_RETRY_MS,
  NOTIFY_LIMIT_BYTES,
  readWire,
  startEventBus,
  wireText,
  type EventBus,
} from '../../../src/core/team/eventBus';
import { dedicatedConnection } from '../../../src/core/team/leader';
import type { ContractEvent } from '../../../src/shared/ipc/contract';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { recordingLog } from '../../helpers/log';
import { pgAvailable, testDatabase } from '../../helpers/postgres';
import { tempDir } from '../../helpers/tmp';
import { endBackend, until } from './teamHelpers';

// Core's events across a team's servers (src/core/team/eventBus.ts): what one server's core emits reaches the
// listeners of every other server (and not its own twice), an alert whose body is too long for a notification
// arrives with its body cut to fit, and a bus whose connection was lost reconnects on its clock and relays again.

const alert = (body: string): ContractEvent => ({
  name: 'alert.raised',
  payload: { id: 7, kind: 'sale_result', title: 'Sold: 2019 Tesla Model 3', body, lot_key: 'copart:1' },
});

describe('the wire form of a team’s events', () => {
  it('keeps a small event whole and drops its own and unknown ones', () => {
    const text = wireText('1', alert('Sold for $12,300.'))!;
    expect(readWire(text, '2')).toEqual(alert('Sold for $12,300.'));
    expect(readWire(text, '1')).toBeNull();
    expect(readWire('{"s":"1","n":"notification.clicked","p":{"lotKey":"x"}}', '2')).toBeNull();
    expect(readWire('{"s":"1","n":"alert.raised","p":{"id":"not a number"}}', '2')).toBeNull();
    expect(readWire('not json', '2')).toBeNull();
  });

  it('cuts a long body to fit the limit, ending in an ellipsis, in bytes whatever the characters', () => {
    for (const ch of ['a', 'é', '€', '"', '😀']) {
      const text = wireText('12', alert(ch.repeat(20_000)))!;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(NOTIFY_LIMIT_BYTES);
      const e = readWire(text, '3')!;
      expect(e.name).toBe('alert.raised');
      const body = (e.payload as { body: string }).body;
      expect(body.endsWith('…')).toBe(true);
      expect(body.length).toBeGreaterThan(1_000);
    }
  });

  it('does not relay another event too big to send', () => {
    const e = { name: 'poll.started', payload: { target: 'x'.repeat(9_000), at: 1 } } as ContractEvent;
    expect(wireText('1', e)).toBeNull();
  });
});

const startCore = coresPerTest();

describe.skipIf(!pgAvailable())('events across two servers of one database', () => {
  let url: string;
  let clock: FakeClock;
  let dir: ReturnType<typeof tempDir>;
  const buses: EventBus[] = [];
  beforeEach(async () => {
    url = (await testDatabase('events'))!;
    clock = new FakeClock();
    dir = tempDir();
  });
  afterEach(async () => {
    for (const b of buses.splice(0)) await b.stop();
    dir.cleanup();
  });

  /** A server: a core on the test's database and its bus, which delivers the others' events into `got`. */
  async function server(id: number, log = silentLogger) {
    const database = await postgresDatabase(url, { dataDir: dir.dir, clock });
    const { core } = await startCore({
      clock,
      database,
      dir: dir.dir,
      autoStart: false,
      demoExamples: false,
    });
    const got: ContractEvent[] = [];
    const reconnected: number[] = [];
    const bus = await startEventBus({
      connect: () => dedicatedConnection(url, 'lotwatch-events-test', log),
      serverId: id,
      subscribe: (l) => core.on(l),
      deliver: (e) => void got.push(e),
      onReconnect: () => void reconnected.push(clock.now()),
      clock,
      log,
    });
    buses.push(bus);
    return { core, bus, got, reconnected };
  }

  /** A settings change on `core`: it emits settings.changed with the new daily cap. */
  const cap = (core: Core, n: number) => core.call('settings.update', { requestsPerDay: n });
  const caps = (got: ContractEvent[]) =>
    got.flatMap((e) => (e.name === 'settings.changed' ? [e.payload.requestsPerDay] : []));

  it('relays what one core emits to the other server’s listeners, in order, and never back to itself', async () => {
    const a = await server(1);
    const b = await server(2);
    await cap(a.core, 40);
    await cap(a.core, 41);
    await cap(b.core, 50);
    await until(() => caps(b.got).length === 2 && caps(a.got).length === 1, 'the events arrive');
    expect(caps(b.got)).toEqual([40, 41]);
    expect(caps(a.got)).toEqual([50]);
  });

  it('reconnects after its connection was lost and relays again, and says so once', async () => {
    const log = recordingLog();
    const a = await server(1);
    const b = await server(2, log);
    await endBackend(url, b.bus.backendPid());
    await until(() => !b.bus.connected(), 'the bus sees the loss');
    await cap(a.core, 60); // sent while B is away: B misses it
    await a.bus.settled();
    clock.advance(EVENTS_RETRY_MS);
    await b.bus.settled();
    expect(b.bus.connected()).toBe(true);
    expect(b.reconnected).toHaveLength(1);
    await cap(a.core, 61);
    await until(() => caps(b.got).includes(61), 'the event after the reconnect arrives');
    expect(caps(b.got)).toEqual([61]);
    expect(
      log.lines.filter((l) => l.msg.startsWith('team: events from the other servers stop')),
    ).toHaveLength(1);
    expect(
      log.lines.filter((l) => l.msg.startsWith('team: events from the other servers flow again')),
    ).toHaveLength(1);
  });
});
