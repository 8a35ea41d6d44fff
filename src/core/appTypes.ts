import type { Database } from 'better-sqlite3';
import type { Dispatcher } from 'undici';
import type { Notifier } from './alerts/notifier';
import type { ChannelOutbox } from './channels/outbox';
import type { ChannelReachOptions } from './channels/reach';
import type { Sender } from './channels/types';
import type { Clock } from './clock';
import type { CoreDatabase } from './coreDatabase';
import type { CalendarSubscription, DeskDeps } from './desk/service';
import type { Logger } from './log';
import type { SecretBox } from './secrets';
import type { TeamAccounts } from './team/accounts';
import type { TeamLinkPort } from './teamLink';
import type { DemoEndpoint } from './serviceClient';
import type { WatchEngine } from './watch/engine';
import type { AppInfo, ContractEvent, Method, MethodInput, MethodOutput } from '../shared/ipc/contract';
import type { Result } from '../shared/ipc/errors';

/* What createCore (app.ts) takes from its shell and what it gives back: the composition root's two shapes. */

/** What createCore needs from its shell: everything with side effects is injected. */
export interface CoreDeps {
  /**
   * The desktop's opened, migrated data file (see `openDatabase`), when `database` is not given. Core owns it from
   * now on and closes it on dispose.
   */
  db?: Database;
  /** The database on either engine (coreDatabase.ts: a team's PostgreSQL, postgresDatabase); core owns it. */
  database?: CoreDatabase;
  dbPath: string;
  dataDir: string;
  clock: Clock;
  secrets: SecretBox;
  notifier: Notifier;
  log: Logger;
  shell: AppInfo['shell'];
  version: string;
  electronVersion?: string | null;
  /**
   * Starts (once) and describes the built-in sandbox for Demo mode. Provided by the shells, which may import
   * src/sandbox; core may not (docs/architecture.md "The parts": the sandbox stays an honest stand-in that can catch
   * the client's mistakes instead of sharing them).
   */
  demoService?: () => Promise<DemoEndpoint>;
  /** undici dispatcher for the service client (tests); default a pooled keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** The user's UTC offset in minutes at time t; default the system's. */
  tzOffsetMinutes?: (t: number) => number;
  /**
   * The clock of the service client's own waits (request timeouts, backoff, rate spacing); default `clock`. An
   * accelerated market clock passes real timers here: the network is not accelerated.
   */
  clientClock?: Clock;
  /** Create Demo mode's example search and watches on first start (default true; tests that count turn it off). */
  demoExamples?: boolean;
  /** Start the watch engine's schedule (default true; tests drive it by hand). */
  autoStart?: boolean;
  /** Also ask market comparables of watched lots by themselves, within the budget (default false; the shells: true). */
  marketAuto?: boolean;
  /**
   * The calendar subscription of the watched sales (the headless shell's `/calendar.ics` with its own read-only
   * secret); default none (the desktop app exports a file).
   */
  calendar?: CalendarSubscription;
  /** The fee files as loaded (default data/fees/, FEE_LOADS); a test passes a broken one (loadFeeDir). */
  feeFiles?: DeskDeps['fees'];
  /** The alert channel senders (email, ntfy, webhook); default the real ones (tests may wrap them). */
  senders?: Readonly<Record<'email' | 'ntfy' | 'webhook', Sender>>;
  /** The ports this Lotwatch listens on (the browser shell's), read when asked: no alert channel may send there. */
  ownPorts?: () => readonly number[];
  /** Resolves the host names of alert channels (as node:dns `lookup`); default the system's (tests inject one). */
  channelLookup?: ChannelReachOptions['lookup'];
  /** A team server's accounts (the headless shell's team mode); none in the desktop app, whose team methods refuse. */
  team?: TeamAccounts;
  /**
   * The desktop app's link to a team server (src/main/teamLink.ts), answering `teamLink.*`; none in the headless
   * shell, where `teamLink.get` says the link is not available.
   */
  teamLink?: TeamLinkPort;
}

export interface Core {
  /** The watch engine (tests drive it with runDue on fake time). */
  readonly engine: WatchEngine;
  /** The alert channels' outbox (tests start it and wait for it when the engine is not auto-started). */
  readonly channelOutbox: ChannelOutbox;
  /** Resolves once the service client for the current mode is ready and the engine has started. */
  readonly ready: Promise<void>;
  /**
   * Starts watching: Demo mode's first examples, the watch engine's loop and the market pass of watched lots (with
   * `marketAuto`), as `autoStart` does at start. A team's server calls it when it takes the scheduler's lock
   * (core/team/leader.ts). Idempotent; calls of start and stop run one after the other, in order. Rejects only with
   * the Demo examples' store errors.
   */
  startWatching(): Promise<void>;
  /**
   * Stops watching (the loop and the market pass's spending) and waits for the job in flight; the alert channels'
   * outbox and every method go on, and `startWatching` starts a fresh loop later. A team's server calls it the moment
   * it loses the scheduler's lock. Idempotent.
   */
  stopWatching(): Promise<void>;
  /** Whether this core watches (startWatching called, stopWatching not since). */
  isWatching(): boolean;
  /**
   * Reads what a team's servers share and each keeps in memory again (the settings and the API key), then rebuilds
   * the service client for them and wakes the watcher: another server of the team changed them (its
   * `settings.changed` arrived over the event bus). Desktop: reads the key again, the settings are read live.
   * @throws the driver's error when the database does not answer (the values read before stay).
   */
  refreshShared(): Promise<void>;
  /**
   * Reads the last two days of the team's request log and the quota again (RequestLedger.refresh): another server
   * of the team spent requests, and this one's Usage and budget should count them.
   * @throws the driver's error when the database does not answer.
   */
  refreshLedger(): Promise<void>;
  /** Calls a contract method by name with unparsed input. Never throws: see `dispatch`. */
  invoke(method: unknown, input: unknown): Promise<Result<unknown>>;
  /**
   * Calls a contract method in process, typed from the contract (for tests and shells): the input is checked and
   * the output parsed as `invoke` does, and the value is returned.
   * @throws LotwatchError with the error's code, message, retryable flag and fields when the call fails.
   */
  call<M extends Method>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** Subscribes to contract events. Returns the unsubscribe function. */
  on(listener: (e: ContractEvent) => void): () => void;
  /** Stops everything long-lived, waits for work in flight, then closes the database. Idempotent. */
  dispose(): Promise<void>;
}
