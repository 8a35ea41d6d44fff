import pg from 'pg';
import type { Core } from '../appTypes';
import type { Clock } from '../clock';
import { KyselyChannelsRepo, SERVER_LOCK_SPACE } from '../db/kysely/channelsRepo';
import { lotwatchTypes, unreachableError } from '../db/pg/open';
import type { Store } from '../db/store';
import { parsePostgresUrl, redactedUrl } from '../db/target';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';
import { startEventBus, type EventBus } from './eventBus';

/*
 * Several servers, one watcher (docs/architecture.md "Several servers, one watcher"). Every server of a team keeps one
 * connection of its own to the database (never one of the pool's: a pooled connection goes back to the pool, and a
 * session lock with it) that holds two session-level advisory locks: its own number's (SERVER_LOCK_SPACE, for as long
 * as it runs: the outbox's claims name it) and, on the one server that watches, the scheduler's. PostgreSQL ends the
 * session when the process dies (kill -9 closes its socket), which frees both, so the next server to ask leads.
 */

/** The scheduler's lock: one two-key advisory lock for the whole team ("LWT" and 0, then 1). */
export const SCHEDULER_LOCK: readonly [number, number] = [0x4c575400, 1];

/**
 * How often a server that does not lead asks for the scheduler's lock, and how often the leader checks that its
 * connection still answers (ms). 5 s: a leader killed outright frees the lock at once, so the next leader starts
 * within 5 s (the team's promise is 30 s); each ask is one small query per server, nothing for the database.
 */
export const LEADER_RETRY_MS = 5_000;

/**
 * How long the dedicated connection waits for the server to connect or to answer a query (ms, real time). 5 s: a
 * leader whose database stopped answering (a cut network, not a closed socket) gives up watching within one retry
 * and this wait, 10 s, before the server can have freed its lock (SERVER_KEEPALIVE: 20 s), so two servers never
 * watch at once.
 */
export const LOCK_QUERY_TIMEOUT_MS = 5_000;

/**
 * The server's TCP keepalive on a dedicated connection (seconds): first probe after 5 s of silence, then every 5 s,
 * 3 unanswered and the session ends. A leader's host that vanished (power cut, cut network) sends no FIN; without this
 * the server would hold its locks for the system default of over two hours. With it, the lock is free within
 * 5 + 3 × 5 = 20 s, and the next leader takes it within LEADER_RETRY_MS more: 25 s, inside the team's 30 s.
 */
const SERVER_KEEPALIVE = { idle: 5, interval: 5, count: 3 };

/**
 * Opens a connection of its own to the PostgreSQL database at `url` (not from a pool), named `name`
 * (application_name, as the server's activity view shows it), with the server's keepalive (SERVER_KEEPALIVE) and
 * LOCK_QUERY_TIMEOUT_MS to connect and per query. A lost connection is logged at debug level and then emits `end`,
 * which its owner follows.
 * @throws DatabaseUnreachableError (`db_unreachable`) when it cannot connect: one line, the address without its
 *   password (see unreachableError); nothing is left open.
 */
export async function dedicatedConnection(url: string, name: string, log: Logger): Promise<pg.Client> {
  const { password } = parsePostgresUrl(url);
  const address = redactedUrl(url);
  const c = new pg.Client({
    connectionString: url,
    application_name: name,
    connectionTimeoutMillis: LOCK_QUERY_TIMEOUT_MS,
    query_timeout: LOCK_QUERY_TIMEOUT_MS,
    keepAlive: true,
    types: lotwatchTypes(),
  });
  // Without a listener a connection the server drops would end the process; its `end` follows and is acted on.
  c.on('error', (e) => log.debug('team: a dedicated database connection failed', { name, error: e.message }));
  try {
    await c.connect();
    const k = SERVER_KEEPALIVE;
    await c.query(
      `SET tcp_keepalives_idle = ${k.idle}; SET tcp_keepalives_interval = ${k.interval}; ` +
        `SET tcp_keepalives_count = ${k.count}`,
    );
  } catch (e) {
    await c.end().catch(() => {});
    throw unreachableError(address, e, { password, timeoutMs: LOCK_QUERY_TIMEOUT_MS });
  }
  return c;
}

/**
 * Makes `store`'s alert channel claims this server's (KyselyChannelsRepo.claimAs): its outbox's claims carry
 * `serverId`, and recovering what was left `sending` takes only gone servers' rows, so the outbox may then run on
 * every server and `recoverLeft` be called while they all send.
 * @throws Error when `store` is not a Kysely store (a team runs on PostgreSQL only).
 */
export function claimAsServer(store: Store, serverId: number): void {
  if (!(store.channels instanceof KyselyChannelsRepo))
    throw new Error('A team server needs the PostgreSQL store: its channel claims name the server.');
  store.channels.claimAs(serverId);
}

/** Where a server stands: watching, waiting for the lock, or without its connection (retrying), or stopped. */
export type LeadershipState = 'leading' | 'following' | 'disconnected' | 'stopped';

/** What a leadership needs; everything with side effects is injected. */
export interface LeadershipDeps {
  /** Opens the dedicated connection (dedicatedConnection(url, 'lotwatch-team', log)); throws when it cannot. */
  connect: () => Promise<pg.Client>;
  /** This server took the scheduler's lock: start watching (Core.startWatching). Rejections are logged. */
  onLead: () => Promise<void>;
  /** This server lost the lock (its connection failed) or stops: stop watching at once (Core.stopWatching). */
  onLose: () => Promise<void>;
  /**
   * After each answer of the connection (every retryMs, on every server): the team server asks its outbox to take
   * over what a gone server left `sending` here (ChannelOutbox.recoverLeft). Must not throw.
   */
  onCheck?: () => void;
  /** Each change of state (leading, following, disconnected, stopped), e.g. for a status line. Must not throw. */
  onState?: (s: LeadershipState) => void;
  /** Timers of the asks and checks (a test steps it). */
  clock: Clock;
  log: Logger;
  /** Between asks and checks (ms); default LEADER_RETRY_MS. */
  retryMs?: number;
}

/** A running leadership (startLeadership). */
export interface Leadership {
  /** This server process's number in the team (from the database's `lotwatch_servers` sequence). */
  readonly serverId: number;
  state(): LeadershipState;
  /** Whether this server holds the scheduler's lock (it watches). */
  isLeader(): boolean;
  /** The backend process id of the dedicated connection, or null without one (tests end it to play a crash). */
  backendPid(): number | null;
  /** Resolves when no ask or check is running (tests, after stepping the clock). */
  settled(): Promise<void>;
  /** Stops asking, calls onLose if leading, and closes the connection (freeing both locks). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Takes this server's seat in the team: opens the dedicated connection, takes a number for this process and holds
 * its lock, and asks for the scheduler's lock; then every `retryMs` a follower asks again and the leader checks its
 * connection with a cheap query. The moment the connection fails (its `end`, or a query that fails or times out) a
 * leader calls onLose, says so once, and reconnects at the next turn, asking for the lock again like any follower:
 * a database that went away pauses watching on every server, and whichever server gets the lock back when it
 * answers watches. Resolves after the first ask (onLead already called when this server leads).
 * @throws what `connect` throws (DatabaseUnreachableError) when the first connection fails; nothing is left open.
 */
export async function startLeadership(d: LeadershipDeps): Promise<Leadership> {
  const seat = new Seat(d);
  await seat.open();
  await seat.run();
  return seat;
}

class Seat implements Leadership {
  private client: pg.Client | null = null;
  private leading = false;
  /** Whether the connection holds this server's number's lock (taken again after a reconnect). */
  private present = false;
  private current: LeadershipState = 'disconnected';
  private cancelTimer: (() => void) | null = null;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private id = 0;
  private readonly retryMs: number;

  constructor(private readonly d: LeadershipDeps) {
    this.retryMs = d.retryMs ?? LEADER_RETRY_MS;
  }

  get serverId(): number {
    return this.id;
  }

  state(): LeadershipState {
    return this.current;
  }

  isLeader(): boolean {
    return this.leading;
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

  /** Connects; the first connection also takes this process's number. Throws what connect throws. */
  async open(): Promise<pg.Client> {
    const c = await this.d.connect();
    try {
      if (!this.id)
        this.id = (
          await c.query<{ id: number }>("SELECT nextval('lotwatch_servers')::int AS id")
        ).rows[0]!.id;
    } catch (e) {
      await c.end().catch(() => {});
      throw e;
    }
    // A connection the server ended (a crash of its backend, a restart, a cut network): act now, not at the next turn.
    c.once('end', () => {
      if (this.client === c) void this.run();
    });
    this.client = c;
    return c;
  }

  /** Queues one ask or check behind the one running; resolves when it is done. Never rejects. */
  run(): Promise<void> {
    this.chain = this.chain.then(() => this.turn());
    return this.chain;
  }

  private async turn(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.stopped) return;
    try {
      const c = this.client ?? (await this.open());
      if (!this.present) this.present = await tryLock(c, SERVER_LOCK_SPACE, this.id);
      if (!this.present)
        // Its earlier session still holds it (the server has not yet noticed that connection is gone).
        this.d.log.debug("team: this server's number is still held by its earlier connection", {
          id: this.id,
        });
      if (this.leading) await c.query('SELECT 1');
      else if (await tryLock(c, ...SCHEDULER_LOCK)) await this.lead();
      else this.set('following');
      this.d.onCheck?.();
    } catch (e) {
      await this.lost(e);
    }
    if (!this.stopped) this.cancelTimer = this.d.clock.setTimeout(() => void this.run(), this.retryMs);
  }

  private async lead(): Promise<void> {
    this.leading = true;
    this.set('leading');
    try {
      await this.d.onLead();
    } catch (e) {
      this.d.log.error('team: watching could not start on this server', { error: (e as Error).message });
    }
  }

  /** The connection failed: stop watching at once if leading, say so once, and reconnect at the next turn. */
  private async lost(e: unknown): Promise<void> {
    const c = this.client;
    this.client = null;
    this.present = false;
    if (c) void c.end().catch(() => {});
    const was = this.leading;
    this.leading = false;
    if (this.current !== 'disconnected')
      this.d.log.warn(
        'team: the connection to the database was lost; this server does not watch until it is back',
        { error: (e as Error)?.message ?? String(e), retryInMs: this.retryMs, wasLeading: was },
      );
    this.set('disconnected');
    if (was) await this.lose();
  }

  private async lose(): Promise<void> {
    try {
      await this.d.onLose();
    } catch (e) {
      this.d.log.error('team: watching did not stop cleanly', { error: (e as Error).message });
    }
  }

  private set(s: LeadershipState): void {
    if (s === this.current) return;
    const from = this.current;
    this.current = s;
    if (s === 'leading') this.d.log.info('team: this server watches now', { server: this.id, from });
    if (s === 'following')
      this.d.log.info('team: another server watches; this one takes over if it stops', { server: this.id });
    this.d.onState?.(s);
  }

  async stop(): Promise<void> {
    if (this.stopped) return this.settled();
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.settled();
    const c = this.client;
    this.client = null;
    if (this.leading) {
      this.leading = false;
      await this.lose();
    }
    this.set('stopped');
    // Closing the session frees both locks: another server leads at its next ask.
    await c?.end().catch(() => {});
  }
}

/** Asks for a two-key session advisory lock without waiting; true when this session holds it (or already did). */
async function tryLock(c: pg.Client, a: number, b: number): Promise<boolean> {
  const r = await c.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS got', [a, b]);
  return r.rows[0]!.got;
}

/** What a team server's watcher needs (startTeamWatch). */
export interface TeamWatchDeps {
  /** The server's core, made with `autoStart: false` (it neither watches nor sends until this says so). */
  core: Pick<Core, 'startWatching' | 'stopWatching' | 'channelOutbox' | 'on'>;
  /** The core's store (CoreDatabase.store: the PostgreSQL store). */
  store: Store;
  /** The team's database address (`postgres://…`), for the two connections of its own. */
  url: string;
  /** Real time (never an accelerated Demo market's clock): the asks, checks and reconnects wait on it. */
  clock: Clock;
  log: Logger;
  /** Gives another server's event to this server's pages (the event stream's broadcast). Must not throw. */
  deliver: (e: ContractEvent) => void;
  /** Each change of this server's standing (say "this server now runs the watcher" on `leading`). Must not throw. */
  onState?: (s: LeadershipState) => void;
  /** Between asks, checks and reconnects (ms); default LEADER_RETRY_MS. */
  retryMs?: number;
}

/** A team server's watcher as running (startTeamWatch). */
export interface TeamWatch {
  /** Resolves with the leadership once the server has its seat, its outbox runs and its events are relayed. */
  readonly ready: Promise<Leadership>;
  /** Stops relaying, stops watching if leading and leaves the seat (the lock goes to another server). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Everything a team server runs beside its pages (docs/architecture.md "Several servers, one watcher"): its seat
 * (startLeadership: watching through Core.startWatching / stopWatching while it holds the scheduler's lock, and at
 * every check the outbox's recovery of what gone servers left `sending`), its channel claims named by its number
 * (claimAsServer), the alert channels' outbox started, and the event bus (startEventBus: `watching.changed` is
 * published only while this server leads, the watching server's state being the team's). Returns at once; when the
 * database does not answer at first, it says so once and tries again every `retryMs` until it does. Throws nothing.
 */
export function startTeamWatch(d: TeamWatchDeps): TeamWatch {
  const retryMs = d.retryMs ?? LEADER_RETRY_MS;
  let stopped = false;
  let seat: Leadership | null = null;
  let bus: EventBus | null = null;
  let cancel: (() => void) | null = null;
  let said = false;
  const join = async (): Promise<Leadership> => {
    const s = await startLeadership({
      connect: () => dedicatedConnection(d.url, 'lotwatch-team', d.log),
      onLead: () => d.core.startWatching(),
      onLose: () => d.core.stopWatching(),
      onCheck: () => d.core.channelOutbox.recoverLeft(),
      ...(d.onState ? { onState: d.onState } : {}),
      clock: d.clock,
      log: d.log,
      retryMs,
    });
    try {
      claimAsServer(d.store, s.serverId);
      d.core.channelOutbox.start();
      bus = await startEventBus({
        connect: () => dedicatedConnection(d.url, 'lotwatch-events', d.log),
        serverId: s.serverId,
        subscribe: (l) => d.core.on(l),
        deliver: d.deliver,
        publishes: (e) => e.name !== 'watching.changed' || s.isLeader(),
        clock: d.clock,
        log: d.log,
        retryMs,
      });
    } catch (e) {
      await s.stop();
      throw e;
    }
    return s;
  };
  // The join in flight (or the last one): stop waits for it, then stops what it started.
  let pending: Promise<void> = Promise.resolve();
  const ready = new Promise<Leadership>((resolve) => {
    const attempt = () => {
      cancel = null;
      if (stopped) return;
      pending = join().then(
        (s) => {
          seat = s;
          if (!stopped) resolve(s);
        },
        (e: unknown) => {
          if (!said)
            d.log.warn('team: the database does not answer; this server joins the team when it does', {
              error: (e as Error).message,
              retryInMs: retryMs,
            });
          said = true;
          if (!stopped) cancel = d.clock.setTimeout(attempt, retryMs);
        },
      );
    };
    attempt();
  });
  return {
    ready,
    async stop() {
      stopped = true;
      cancel?.();
      await pending;
      await (bus as EventBus | null)?.stop();
      await (seat as Leadership | null)?.stop();
    },
  };
}
