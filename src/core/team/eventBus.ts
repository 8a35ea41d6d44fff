import type pg from 'pg';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { events, type ContractEvent } from '../../shared/ipc/contract';

/*
 * Core's events across a team's servers (docs/architecture.md "Several servers, one watcher"): each server publishes
 * its own core's events with NOTIFY on one channel, tagged with its number, and LISTENs on a connection of its own
 * for the others', which it passes to its own listeners (the headless shell's event stream), so a page connected to
 * any server sees an alert the watching server raised, or a delivery another server sent.
 */

/**
 * How long a bus whose connection was lost waits before each try to connect again (ms). 5 s, as the leadership's
 * asks (leader.ts LEADER_RETRY_MS): events come back about when the watcher does, and a database that is gone is
 * asked once per 5 s per server, nothing for it.
 */
export const EVENTS_RETRY_MS = 5_000;

/** The NOTIFY channel of a team's events. */
export const EVENTS_CHANNEL = 'lotwatch_events';

/**
 * The most bytes (UTF-8) of one notification's text Lotwatch sends. PostgreSQL refuses a payload of 8,000 bytes or
 * more (its default build); 7,900 leaves room for the server's own framing.
 */
export const NOTIFY_LIMIT_BYTES = 7_900;

/**
 * The events a team's servers relay: what a page shows that any server's core may cause. Not relayed: a desktop's
 * notification click (its own window only) and reachability (each server's own requests; the watching state says it).
 */
export const RELAYED_EVENTS: ReadonlySet<ContractEvent['name']> = new Set<ContractEvent['name']>([
  'alert.raised',
  'notification.posted',
  'unread.changed',
  'poll.started',
  'poll.finished',
  'quota.changed',
  'watching.changed',
  'deliveries.changed',
  'settings.changed',
]);

/** One notification as sent: the server's number, the event's name and payload; `cut` when its body was shortened. */
interface Wire {
  s: string;
  n: ContractEvent['name'];
  p: unknown;
  cut?: true;
}

/**
 * The notification text of `e` from server `from`, at most `limit` bytes, or null when it cannot fit. The rule for a
 * big event: an alert's or notification's `body` (the only text that grows without bound) is cut to fit and ends in
 * "…" (the page reads the whole alert from the inbox); any other event that does not fit is not relayed (null: the
 * caller logs it), which none of the relayed events' payloads come near. Pure.
 */
export function wireText(from: string, e: ContractEvent, limit = NOTIFY_LIMIT_BYTES): string | null {
  const text = JSON.stringify({ s: from, n: e.name, p: e.payload } satisfies Wire);
  if (Buffer.byteLength(text) <= limit) return text;
  const body = (e.payload as { body?: unknown }).body;
  if (typeof body !== 'string') return null;
  const rest = JSON.stringify({
    s: from,
    n: e.name,
    p: { ...e.payload, body: '' },
    cut: true,
  } satisfies Wire);
  // The body's JSON escapes can take up to 6 bytes per character: cut by its escaped size, then trim to fit.
  let room = limit - Buffer.byteLength(rest) - 3;
  if (room <= 0) return null;
  let cut = body.slice(0, room);
  for (;;) {
    const t = JSON.stringify({ s: from, n: e.name, p: { ...e.payload, body: `${cut}…` }, cut: true });
    if (Buffer.byteLength(t) <= limit) return t;
    room = Math.floor(cut.length * 0.9);
    if (room <= 0) return null;
    cut = cut.slice(0, room);
  }
}

/**
 * Reads a notification's text from another server: the event, or null for one of this server's own (`self`),
 * one not relayed, or one whose payload this version's contract does not accept (a server of another version).
 * Pure; throws nothing.
 */
export function readWire(text: string, self: string): ContractEvent | null {
  let w: Partial<Wire>;
  try {
    w = JSON.parse(text) as Partial<Wire>;
  } catch {
    return null;
  }
  if (w.s === self || !w.n || !RELAYED_EVENTS.has(w.n)) return null;
  const parsed = events[w.n].safeParse(w.p);
  return parsed.success ? ({ name: w.n, payload: parsed.data } as ContractEvent) : null;
}

/** What the event bus needs; everything with side effects is injected. */
export interface EventBusDeps {
  /** Opens its own connection for LISTEN and NOTIFY (dedicatedConnection(url, 'lotwatch-events', log)). */
  connect: () => Promise<pg.Client>;
  /** This server's tag on what it publishes (Leadership.serverId): its own notifications come back and are dropped. */
  serverId: number | string;
  /** Subscribes to this server's core's events (Core.on); returns the unsubscribe. */
  subscribe: (listener: (e: ContractEvent) => void) => () => void;
  /**
   * Gives another server's event to this server's listeners (the headless shell's event stream). Must not throw. An
   * event this core emits while `deliver` runs is not published again (no echo between servers).
   */
  deliver: (e: ContractEvent) => void;
  /**
   * Which of this core's relayed events to publish (default all of RELAYED_EVENTS). The team server may, for one,
   * publish `watching.changed` only while it leads.
   */
  publishes?: (e: ContractEvent) => boolean;
  /**
   * Called after the connection came back from a loss: events sent meanwhile were missed, so the shell may tell its
   * pages to read again. Must not throw.
   */
  onReconnect?: () => void;
  clock: Clock;
  log: Logger;
  /** Between attempts to reconnect (ms); default EVENTS_RETRY_MS. */
  retryMs?: number;
}

/** A running event bus (startEventBus). */
export interface EventBus {
  /** Whether its connection is up (LISTENing). */
  connected(): boolean;
  /** The backend process id of its connection, or null (tests end it to play a lost connection). */
  backendPid(): number | null;
  /** Resolves when every publish queued so far has been sent and no reconnect is running (tests). */
  settled(): Promise<void>;
  /** Stops publishing and listening and closes the connection. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts relaying: connects and LISTENs on EVENTS_CHANNEL, then publishes each relayed event of this core (one
 * NOTIFY each, in order, on the same connection: `wireText`, a big body cut to fit) and delivers every other
 * server's (`readWire`). A lost connection is said once; events published meanwhile are dropped (counted in the
 * line said when it is back), and it reconnects every `retryMs` on the injected clock.
 * @throws what `connect` throws when the first connection fails; nothing is left open.
 */
export async function startEventBus(d: EventBusDeps): Promise<EventBus> {
  const bus = new Bus(d);
  await bus.open();
  bus.plan();
  return bus;
}

class Bus implements EventBus {
  private client: pg.Client | null = null;
  private chain: Promise<void> = Promise.resolve();
  private cancelTimer: (() => void) | null = null;
  private stopped = false;
  private dropped = 0;
  /** True while `deliver` runs: what core emits meanwhile is another server's event coming back. */
  private delivering = false;
  private readonly self: string;
  private readonly unsubscribe: () => void;

  constructor(private readonly d: EventBusDeps) {
    this.self = String(d.serverId);
    this.unsubscribe = d.subscribe((e) => this.publish(e));
  }

  connected(): boolean {
    return this.client !== null;
  }

  backendPid(): number | null {
    return (this.client as { processID?: number } | null)?.processID ?? null;
  }

  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  /** Connects and listens. @throws what connect throws (nothing is left open). */
  async open(): Promise<void> {
    const c = await this.d.connect();
    try {
      c.on('notification', (m) => {
        if (m.channel !== EVENTS_CHANNEL || m.payload === undefined) return;
        const e = readWire(m.payload, this.self);
        if (!e) return;
        this.delivering = true;
        try {
          this.d.deliver(e);
        } finally {
          this.delivering = false;
        }
      });
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (e) {
      await c.end().catch(() => {});
      throw e;
    }
    c.once('end', () => {
      if (this.client === c) this.lost(new Error('the connection ended'));
    });
    this.client = c;
  }

  private publish(e: ContractEvent): void {
    if (this.stopped || this.delivering || !RELAYED_EVENTS.has(e.name)) return;
    if (!(this.d.publishes?.(e) ?? true)) return;
    const text = wireText(this.self, e);
    if (text === null) {
      this.d.log.warn('team: an event too big to relay was not sent to the other servers', { event: e.name });
      return;
    }
    const c = this.client;
    if (!c) {
      this.dropped++;
      return;
    }
    this.chain = this.chain.then(async () => {
      try {
        await c.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, text]);
      } catch (err) {
        this.dropped++;
        if (this.client === c) this.lost(err);
      }
    });
  }

  /** The connection failed: say so once, and reconnect every retryMs until it is back. */
  private lost(e: unknown): void {
    const c = this.client;
    this.client = null;
    if (c) void c.end().catch(() => {});
    if (this.stopped) return;
    this.d.log.warn('team: events from the other servers stop until the database connection is back', {
      error: (e as Error)?.message ?? String(e),
      retryInMs: this.d.retryMs ?? EVENTS_RETRY_MS,
    });
    this.plan();
  }

  /**
   * Every retryMs: reconnects when the connection is lost, else checks it with a cheap query (a LISTEN connection is
   * idle, and a cut network would otherwise go unnoticed while events silently stopped coming).
   */
  plan(): void {
    this.cancelTimer?.();
    this.cancelTimer = this.d.clock.setTimeout(() => {
      this.cancelTimer = null;
      this.chain = this.chain.then(() => (this.client ? this.check(this.client) : this.reconnect()));
    }, this.d.retryMs ?? EVENTS_RETRY_MS);
  }

  private async check(c: pg.Client): Promise<void> {
    try {
      await c.query('SELECT 1');
    } catch (e) {
      if (this.client === c) return this.lost(e);
    }
    if (!this.stopped) this.plan();
  }

  private async reconnect(): Promise<void> {
    if (this.stopped || this.client) return;
    try {
      await this.open();
    } catch {
      this.plan();
      return;
    }
    this.d.log.info('team: events from the other servers flow again', { notSentWhileAway: this.dropped });
    this.dropped = 0;
    this.d.onReconnect?.();
    this.plan();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.settled();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}
