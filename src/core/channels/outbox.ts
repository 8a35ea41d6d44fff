import { channelFailingAlert } from '../alerts/system';
import type { Clock } from '../clock';
import type { ChannelRow, ChannelsRepo, DeliveryRow } from '../db/channelsRepo';
import type { AlertsRepo } from '../db/alertsRepo';
import type { Async, Transact } from '../db/async';
import type { Logger } from '../log';
import type { SecretBox } from '../secrets';
import type { ChannelSettings, ChannelType } from '../../shared/alertChannels';
import type { ContractEvent } from '../../shared/ipc/contract';
import { Lanes } from './lanes';
import { messageAlert, parseSettings } from './rows';
export { parseSettings } from './rows';
import { defaultReach, type ChannelReach } from './reach';
import { messageFor, routeAlert } from './route';
import { memberRoutes, type MemberRouting } from './personalRoute';
import { secretForSend, type SecretBindingDeps } from './secretBinding';
import { SEND_DEADLINE_MS, SendStopped, withinDeadline } from './senders';
import { ChannelSendError, type ChannelMessage, type Sender, type SendTarget } from './types';

const HOUR = 3_600_000;
/** The first retry waits 30 s; each next one twice as long, at most an hour. */
export const RETRY_FIRST_MS = 30_000;
export const RETRY_MAX_MS = HOUR;
/** A message still failing a day after its alert is given up (`failed`, kept in the log); the inbox has it anyway. */
export const GIVE_UP_MS = 24 * HOUR;
/** Alerts routed per channel per round: a first start after a long stop routes the rest in the next rounds. */
const ROUTE_BATCH = 500;

/**
 * How long to wait before attempt `attempts + 1` (ms): 30 s, 1 min, 2 min, ... at most an hour, or longer when
 * the receiver asked for it (HTTP 429 Retry-After). Pure.
 */
export function retryDelay(attempts: number, retryAfterMs: number | null): number {
  const backoff = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));
  return Math.max(backoff, retryAfterMs ?? 0);
}

export { channelSecretName } from './secretBinding';

/** A stored channel whose settings read back valid. */
export interface LiveChannel {
  row: ChannelRow;
  settings: ChannelSettings;
}

/** What the channel outbox needs; everything with side effects is injected. */
export interface ChannelOutboxDeps {
  /** Its repositories only: the channels and their deliveries, the alerts it raises, the channel secrets, one transaction. */
  store: SecretBindingDeps['store'] & {
    channels: Async<ChannelsRepo>;
    alerts: Pick<Async<AlertsRepo>, 'insertAlert'>;
    transaction: Transact;
  };
  clock: Clock;
  log: Logger;
  secrets: SecretBox;
  senders: Readonly<Record<ChannelType, Sender>>;
  /** Where channels may connect (reach.ts); default the system's resolver, no port of Lotwatch's own. */
  reach?: ChannelReach;
  /** The user's UTC offset in minutes at time t (a channel's own quiet hours are local times). */
  tzOffsetMinutes: (t: number) => number;
  /** Each team member's own mutes, snoozes and quiet hours, for the channels they own (personalRoute.ts). */
  member?: MemberRouting;
  emit: (e: ContractEvent) => void;
  /** A channel's failing alert was stored: the inbox's outbox should show it now, not at the next tick. */
  onSystemAlert: () => void;
  /**
   * The clock a send's deadline runs on (default `clock`): real timers when `clock` is an accelerated Demo market,
   * since the network is not accelerated; a test's fake clock in tests, so a test moves time past the deadline.
   */
  netClock?: Clock;
}

class ClaimLost extends Error {}

/**
 * The per-channel outbox (docs/architecture.md "Delivery"). Each round routes the alerts raised since each channel's
 * cursor (one delivery row per alert and channel, written once), then sends what is due: a pending delivery as its
 * own message, a channel's held ones (its quiet hours ended) as one digest. Before a message leaves, its rows are
 * claimed in a committed write (`sending`, with the message's key); after the receiver accepted it they are marked
 * `sent`. A failure puts them back with a growing wait (retryDelay) and, at the third failure in a row, raises an
 * alert that says what to fix. At start, rows a stop left `sending` are checked with the receiver where it can tell
 * (ntfy), else sent again under the same key, so a receiver that keeps keys drops the repeat: no alert is lost, and
 * none arrives twice unless the stop fell between the receiver's answer and Lotwatch's record of it and the receiver
 * ignores the key. Rounds never overlap. Sends go on one lane per channel: a channel's messages one after another,
 * channels independently of each other, each send within SEND_DEADLINE_MS (a send that does not finish by then is a
 * failed attempt). Disposing aborts the sends in flight; their rows stay `sending` for the next start to recover.
 */
export class ChannelOutbox {
  private chain: Promise<void> = Promise.resolve();
  private readonly lanes = new Lanes((id, e) =>
    this.d.log.warn('channels: sending on a channel failed', { channel: id, error: (e as Error).message }),
  );
  private readonly stop = new AbortController();
  private cancelTimer: (() => void) | null = null;
  private started = false;
  private disposed = false;
  private queued = false;
  /** Counts `schedule` calls: only the latest one sets the timer (its reads are the newest). */
  private scheduling = 0;

  constructor(private readonly d: ChannelOutboxDeps) {}

  /** Recovers what a stop left `sending` (on each channel's lane, first), then runs a round. Idempotent. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.recoverLeft();
  }

  /** Start's recovery again, for a team's server only: its store gives just gone servers' rows (claimAs). */
  recoverLeft(): void {
    if (this.started && !this.disposed) void this.enqueue(() => this.recover()).then(() => this.kick());
  }

  /** Asks for a round soon (new alerts, a changed channel); rounds asked for while one waits are one round. */
  kick(): void {
    if (!this.started || this.disposed || this.queued) return;
    this.queued = true;
    void this.enqueue(async () => {
      this.queued = false;
      await this.round();
    });
  }

  /**
   * Resolves when no round and no channel's send is in flight or queued (tests, shutdown): a send that never
   * finishes keeps it waiting until its deadline.
   */
  async idle(): Promise<void> {
    for (;;) {
      const round = this.chain;
      await round;
      await this.lanes.idle();
      if (this.chain === round) return;
    }
  }

  /**
   * Stops the timer, aborts the sends in flight (their rows stay `sending`: the next start recovers them) and waits
   * for the lanes to let go, which they do at once. Idempotent.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.stop.abort();
    await this.idle();
  }

  /**
   * Sends `msg` to `ch` now, outside the outbox (nothing recorded, nothing retried): the Test button. Resolves with
   * the sender's line for the log.
   * @throws ChannelSendError for a failed send, the sender's timedOut error when it did not finish within
   *   SEND_DEADLINE_MS, SendStopped when Lotwatch is stopping.
   */
  async sendNow(ch: LiveChannel, msg: ChannelMessage): Promise<{ detail: string }> {
    const sender = this.d.senders[ch.settings.config.type];
    return this.within(ch, (target, signal) => sender.send(target, msg, signal));
  }

  /** The channels whose stored settings read back valid (one damaged row is logged and left alone). */
  async channels(): Promise<LiveChannel[]> {
    const out: LiveChannel[] = [];
    for (const row of await this.d.store.channels.list()) {
      const s = parseSettings(row.settings);
      if (s) out.push({ row, settings: s });
      else
        this.d.log.warn('channels: stored settings are not valid; the channel is skipped', {
          channel: row.id,
        });
    }
    return out;
  }

  /**
   * The channel as a sender needs it. Throws ChannelSendError when its secret cannot be decrypted or was saved for
   * another destination (secretBinding.ts: a secret goes only where it was saved for).
   */
  async target(ch: LiveChannel): Promise<SendTarget> {
    const secret = await secretForSend(this.d, ch.row.id, ch.settings.config);
    return {
      name: ch.settings.name,
      config: ch.settings.config,
      secret,
      reach: this.d.reach ?? defaultReach(),
    };
  }

  /** Runs `work` for one channel under the deadline and the outbox's stop; see withinDeadline. */
  private async within<T>(ch: LiveChannel, work: (t: SendTarget, s: AbortSignal) => Promise<T>): Promise<T> {
    const target = await this.target(ch);
    const sender = this.d.senders[ch.settings.config.type];
    return withinDeadline(
      {
        clock: this.d.netClock ?? this.d.clock,
        ms: SEND_DEADLINE_MS,
        stop: this.stop.signal,
        onTimeout: () => sender.timedOut(target, Math.round(SEND_DEADLINE_MS / 1000)),
      },
      (signal) => work(target, signal),
    );
  }

  private enqueue(fn: () => Promise<void>): Promise<void> {
    const p = this.chain.then(fn).catch((e: unknown) => {
      this.d.log.warn('channels: a delivery round failed', { error: (e as Error).message });
    });
    this.chain = p;
    return p;
  }

  /** Asks for a pass over channel `id`'s due deliveries on its lane; one already waiting there covers it. */
  private sendSoon(id: number): void {
    if (this.disposed) return;
    this.lanes.once(id, async () => {
      await this.sendDue(id);
      await this.schedule();
    });
  }

  private async round(): Promise<void> {
    if (this.disposed) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    const live = (await this.channels()).filter((c) => c.settings.enabled);
    const more = await this.route(live);
    for (const ch of live) this.sendSoon(ch.row.id);
    if (more) this.kick();
    else await this.schedule();
  }

  /** Routes new alerts to each channel in one transaction; true when a channel has more to route. */
  private async route(live: LiveChannel[]): Promise<boolean> {
    const now = this.d.clock.now();
    const tz = this.d.tzOffsetMinutes(now);
    const store = this.d.store;
    let more = false;
    let routed = 0;
    const routes = await memberRoutes(this.d.member, live, this.d.tzOffsetMinutes);
    await store.transaction(async () => {
      for (const {
        row: { id },
      } of live) {
        // Read again inside the transaction: a channel saved, switched off or removed since the round read the list
        // is routed by what is stored now (its cursor, its settings), or not at all.
        const row = await store.channels.get(id);
        const settings = row && parseSettings(row.settings);
        if (!row || !settings?.enabled) continue;
        const alerts = await store.channels.alertsAfter(row.cursor, ROUTE_BATCH);
        for (const a of alerts) {
          const m = routes(row)(a);
          const r = m && routeAlert(m, { id, settings }, now, tz);
          if (!r) continue;
          await store.channels.addDelivery(a.id, id, r.status, r.not_before, r.detail, now);
          routed++;
        }
        if (alerts.length) await store.channels.setCursor(id, alerts[alerts.length - 1]!.id);
        if (alerts.length === ROUTE_BATCH) more = true;
      }
    });
    if (routed) this.changed();
    return more;
  }

  /**
   * Sends a channel's due deliveries: pending ones one message each, held ones as one digest. Reads the channel
   * again, since the buyer may have changed or switched it off while this pass waited on its lane.
   */
  private async sendDue(id: number): Promise<void> {
    const row = await this.d.store.channels.get(id);
    const settings = row && parseSettings(row.settings);
    if (this.disposed || !row || !settings?.enabled) return;
    const ch: LiveChannel = { row, settings };
    const due = await this.d.store.channels.dueFor(ch.row.id, this.d.clock.now());
    const held = due.filter((r) => r.status === 'held');
    const groups = due.filter((r) => r.status === 'pending').map((r) => [r]);
    if (held.length) groups.push(held);
    for (const g of groups) {
      if (this.disposed) return;
      await this.sendGroup(ch, g);
    }
  }

  private async sendGroup(ch: LiveChannel, rows: DeliveryRow[]): Promise<void> {
    const key = rows[0]!.message_key ?? `lw-${ch.row.created_at.toString(36)}-${ch.row.id}-${rows[0]!.id}`;
    const msg = messageFor(key, rows.map(messageAlert));
    const ids = rows.map((r) => r.id);
    const store = this.d.store;
    try {
      await store.transaction(async () => {
        if (!(await store.channels.claim(ids, key, this.d.clock.now()))) throw new ClaimLost();
      });
    } catch (e) {
      if (e instanceof ClaimLost) return;
      throw e;
    }
    this.changed();
    try {
      const { detail } = await this.sendNow(ch, msg);
      const now = this.d.clock.now();
      await store.transaction(async () => {
        await store.channels.markSent(ids, now, detail);
        await store.channels.recordSuccess(ch.row.id, now);
      });
    } catch (e) {
      // Stopping is not the channel's failure: the rows stay `sending`, and the next start sends them again.
      if (e instanceof SendStopped) return;
      await this.failed(ch, rows, e);
    }
    this.changed();
  }

  /** A send failed: each row waits for its retry (or is given up after a day), and the streak may raise an alert. */
  private async failed(ch: LiveChannel, rows: DeliveryRow[], e: unknown): Promise<void> {
    const err =
      e instanceof ChannelSendError
        ? e
        : new ChannelSendError(`Sending failed: ${(e as Error).message}`, { permanent: false });
    const now = this.d.clock.now();
    this.d.log.warn('channels: a send failed', {
      channel: ch.row.id,
      type: ch.settings.config.type,
      error: err.message,
    });
    const store = this.d.store;
    const raised = await store.transaction(async () => {
      for (const r of rows) {
        if (now - r.alert_created_at >= GIVE_UP_MS) {
          await store.channels.setStatus(r.id, 'failed', now, `Gave up after a day of tries. ${err.message}`);
        } else {
          const wait = retryDelay(r.attempts + 1, err.retryAfterMs);
          await store.channels.setStatus(
            r.id,
            r.status === 'held' ? 'held' : 'pending',
            now + wait,
            err.message,
          );
        }
      }
      const streak = await store.channels.recordFailure(ch.row.id, err.message, now);
      const a = channelFailingAlert(
        { id: ch.row.id, name: ch.settings.name },
        streak.failures,
        err.message,
        streak.since,
      );
      if (!a) return false;
      const stored = await store.alerts.insertAlert(
        { ...a, change_id: null, source: `channel:${ch.row.id}`, deliver_after: null },
        now,
      );
      return stored !== null;
    });
    if (raised) this.d.onSystemAlert();
  }

  /**
   * At start: messages a stop left `sending`, on each channel's lane before its first pass. A channel that can tell
   * (ntfy) is asked whether the message arrived: yes, the rows are marked sent; otherwise they go again at once,
   * under the same key.
   */
  private async recover(): Promise<void> {
    const byChannel = new Map<number, Map<string, DeliveryRow[]>>();
    for (const r of await this.d.store.channels.leftSending()) {
      const keys = byChannel.get(r.channel_id) ?? new Map<string, DeliveryRow[]>();
      byChannel.set(r.channel_id, keys);
      const k = r.message_key ?? String(r.id);
      keys.set(k, [...(keys.get(k) ?? []), r]);
    }
    for (const [id, keys] of byChannel)
      this.lanes.push(id, () => this.recoverChannel(id, [...keys.values()]));
  }

  private async recoverChannel(id: number, messages: DeliveryRow[][]): Promise<void> {
    const store = this.d.store;
    const row = await store.channels.get(id);
    const settings = row && parseSettings(row.settings);
    const ch = row && settings ? { row, settings } : null;
    for (const rows of messages) {
      const arrived = ch ? await this.confirm(ch, rows) : null;
      // Stopping again: the rows stay as they are for the next start.
      if (this.disposed) return;
      const now = this.d.clock.now();
      await store.transaction(async () => {
        if (arrived) {
          await store.channels.markSent(
            rows.map((r) => r.id),
            now,
            'Arrived before Lotwatch stopped (the server confirmed it).',
          );
          await store.channels.recordSuccess(id, now);
          return;
        }
        const why =
          arrived === false
            ? 'Lotwatch stopped while sending and the server did not get it: sending again.'
            : 'Lotwatch stopped while sending: sent again with the same message id.';
        for (const r of rows)
          await store.channels.setStatus(r.id, rows.length > 1 ? 'held' : 'pending', now, why);
      });
      this.d.log.warn('channels: a message left sending by a stop', { channel: id, arrived });
    }
    this.changed();
  }

  /** Whether the receiver has the message of `rows` (true/false), or null when the channel cannot tell. */
  private async confirm(ch: LiveChannel, rows: DeliveryRow[]): Promise<boolean | null> {
    const sender = this.d.senders[ch.settings.config.type];
    if (!sender.confirm || !rows[0]!.message_key) return null;
    try {
      const msg: ChannelMessage = messageFor(rows[0]!.message_key, rows.map(messageAlert));
      const since = Math.min(...rows.map((r) => r.attempted_at ?? r.created_at));
      return await this.within(ch, (target, signal) => sender.confirm!(target, msg, since, signal));
    } catch {
      return null;
    }
  }

  /**
   * Sleeps until the next held or pending delivery of a live channel is due. A channel with a pass waiting on its
   * lane is left out: that pass schedules again when it is done. Of calls that overlap, the last one called sets
   * the timer (it read the newest rows).
   */
  private async schedule(): Promise<void> {
    if (this.disposed) return;
    const call = ++this.scheduling;
    let next = Infinity;
    for (const ch of await this.channels()) {
      if (!ch.settings.enabled || this.lanes.waiting(ch.row.id)) continue;
      next = Math.min(next, (await this.d.store.channels.nextDueFor(ch.row.id)) ?? Infinity);
    }
    if (this.disposed || call !== this.scheduling) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    const now = this.d.clock.now();
    if (!Number.isFinite(next)) return;
    this.cancelTimer = this.d.clock.setTimeout(
      () => {
        this.cancelTimer = null;
        this.kick();
      },
      Math.max(1_000, Math.ceil(next - now)),
    );
  }

  private changed(): void {
    this.d.emit({ name: 'deliveries.changed', payload: { at: this.d.clock.now() } });
  }
}
