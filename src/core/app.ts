import type { Database } from 'better-sqlite3';
import type { Dispatcher } from 'undici';
import { createApiClient, type ApiClient } from './api';
import { BackupScheduler } from './db/backup';
import { RetentionScheduler } from './db/retention';
import { closeDatabase, markSuspect, nativeBindingOf } from './db/connection';
import { PhotoCache } from './db/photoCache';
import { Store } from './db/store';
import { ApiKeyStore } from './apiKey';
import { LotwatchError } from './errors';
import { join } from 'node:path';
import { RequestBudget } from './watch/budget';
import { WatchEngine } from './watch/engine';
import { ApiConsole } from './watch/apiConsole';
import { ExploreService } from './watch/explore';
import { WatchService } from './watch/service';
import type { AppInfo, ContractEvent, Method, MethodInput, MethodOutput } from '../shared/ipc/contract';
import type { Result } from '../shared/ipc/errors';
import type { QuotaSnapshot } from '../shared/vehicle';
import type { Clock } from './clock';
import { SettingsRepo } from './db/settingsRepo';
import type { Logger } from './log';
import { dispatch, type Handlers } from './rpc';
import { DeskService, type CalendarSubscription } from './desk/service';
import { ChannelOutbox } from './channels/outbox';
import { ChannelService } from './channels/service';
import { SENDERS } from './channels/senders';
import type { Sender } from './channels/types';
import { channelReach, type ChannelReachOptions } from './channels/reach';
import { channelHandlers } from './handlers/channels';
import { appHandlers } from './handlers/app';
import { backupHandlers } from './handlers/backups';
import { consoleHandlers } from './handlers/console';
import { deskHandlers } from './handlers/desk';
import { joinHandlers, type HandlerContext } from './handlers/context';
import { inboxHandlers } from './handlers/inbox';
import { libraryHandlers } from './handlers/library';
import { lotHandlers } from './handlers/lots';
import { searchHandlers } from './handlers/searches';
import { settingsHandlers } from './handlers/settings';
import { watchlistHandlers } from './handlers/watchlist';
import type { Notifier } from './alerts/notifier';
import type { SecretBox } from './secrets';

export type { Notifier } from './alerts/notifier';

/** What createCore needs from its shell: everything with side effects is injected. */
export interface CoreDeps {
  /** An opened, migrated database (see `openDatabase`). Core owns it from now on and closes it on dispose. */
  db: Database;
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
  demoService?: () => Promise<{ baseUrl: string; apiKey: string; ratePerSecond?: number }>;
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
  /**
   * The calendar subscription of the watched sales (the headless shell's `/calendar.ics` with its own read-only
   * secret); default none (the desktop app exports a file).
   */
  calendar?: CalendarSubscription;
  /** The alert channel senders (email, ntfy, webhook); default the real ones (tests may wrap them). */
  senders?: Readonly<Record<'email' | 'ntfy' | 'webhook', Sender>>;
  /** The ports this Lotwatch listens on (the browser shell's), read when asked: no alert channel may send there. */
  ownPorts?: () => readonly number[];
  /** Resolves the host names of alert channels (as node:dns `lookup`); default the system's (tests inject one). */
  channelLookup?: ChannelReachOptions['lookup'];
}

export interface Core {
  /** The watch engine (tests drive it with runDue on fake time). */
  readonly engine: WatchEngine;
  /** The alert channels' outbox (tests start it and wait for it when the engine is not auto-started). */
  readonly channelOutbox: ChannelOutbox;
  /** Resolves once the service client for the current mode is ready and the engine has started. */
  readonly ready: Promise<void>;
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

/**
 * The composition root without a shell (docs/architecture.md "The parts"). Both the Electron and the headless shell
 * call this with their own ports.
 */
export function createCore(deps: CoreDeps): Core {
  const { db, log } = deps;
  const settings = new SettingsRepo(db, deps.clock);
  const listeners = new Set<(e: ContractEvent) => void>();
  // The unread count is pushed when it may have changed (navigation, title, badge); the count at start is the baseline.
  let unread = 0;
  const pushUnread = () => {
    if (!db.open) return;
    const n = service.unreadCount();
    if (n === unread) return;
    unread = n;
    emit({ name: 'unread.changed', payload: { count: n } });
  };
  // Whether the service answered the last request (null before the first): the header's "Offline".
  let reachable: boolean | null = null;
  const emit = (e: ContractEvent) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch (error) {
        log.warn('event listener failed', { event: e.name, error: (error as Error).message });
      }
    }
  };
  let disposed: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const store = new Store(db);

  const apiKey = new ApiKeyStore({ store, secrets: deps.secrets, clock: deps.clock, log, serviceUrl: () => settings.get().serviceUrl });
  const keyFor = (url: string): string | undefined => apiKey.keyFor(url);
  let client: ApiClient | null = null;
  const clientOptions = {
    clock: deps.clientClock ?? deps.clock,
    log,
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
    sink: (r: Parameters<NonNullable<Parameters<typeof createApiClient>[0]['sink']>>[0]) => {
      if (db.open) store.requests.logRequest(r);
      const now = r.status !== null;
      if (now !== reachable) {
        reachable = now;
        emit({ name: 'reachability.changed', payload: { reachable: now, at: r.at } });
      }
    },
    // Every answer's quota headers, whoever asked (a poll, a search in the UI, the console), feed the budget.
    onQuota: (q: QuotaSnapshot) => {
      if (!db.open) return;
      // An answer without the period headers (some 429s) keeps the period of the last full snapshot, so a spent
      // quota is still said as "until 12 December".
      const prev = store.requests.loadQuota();
      const keep = q.periodEnd === null && prev?.periodEnd != null && prev.periodEnd > q.at;
      const merged = keep ? { ...q, periodStart: prev.periodStart, periodEnd: prev.periodEnd } : q;
      store.requests.saveQuota(merged, deps.clock.now());
      engine.onQuota(merged);
      emit({ name: 'quota.changed', payload: merged });
    },
  };
  /** Builds the client for the current mode: the sandbox in Demo mode, else the service URL with the user's key. */
  async function rebuildClient(): Promise<void> {
    const old = client;
    client = null;
    await old?.close();
    // Another key, service or mode has its own quota: the old one's numbers and pause no longer apply.
    if (old) {
      store.requests.deleteQuota();
      engine.resetPause();
    }
    const s = settings.get();
    if (s.demoMode) {
      if (!deps.demoService) return;
      const demo = await deps.demoService();
      client = createApiClient({
        ...clientOptions,
        baseUrl: demo.baseUrl,
        apiKey: () => demo.apiKey,
        ratePerSecond: demo.ratePerSecond ?? 10,
      });
    } else if ((deps.clock.speed ?? 1) > 1) {
      // An accelerated clock drives the Demo market only: the real service is never asked at that pace.
      log.warn('Demo mode is off on an accelerated clock: the real service is not called');
    } else if (keyFor(s.serviceUrl)) {
      // The key is looked up per request for this client's URL, so a key set later for another origin never
      // reaches this one (a retry in flight, say).
      const baseUrl = s.serviceUrl;
      client = createApiClient({ ...clientOptions, baseUrl, apiKey: () => keyFor(baseUrl) });
    }
  }
  const budget = new RequestBudget({
    spentSince: (t) => store.requests.requestsSince(t),
    sentSince: (t) => store.requests.sentSince(t),
    quota: () => store.requests.loadQuota(),
    userPerDay: () => settings.get().requestsPerDay,
  });
  const tz = deps.tzOffsetMinutes ?? ((t: number) => -new Date(t).getTimezoneOffset());
  const engine = new WatchEngine({
    store,
    client: () => client,
    clock: deps.clock,
    log,
    budget,
    notifier: deps.notifier,
    notificationsEnabled: () => settings.get().notificationsEnabled,
    // After each delivery round: the unread count, and the alert channels route what was just raised.
    afterDeliver: () => {
      pushUnread();
      channelOutbox.kick();
    },
    emit: (e) => emit(e),
    quiet: () => settings.get().quietHours,
    tzOffsetMinutes: tz,
    examplesActive: () => settings.get().demoMode,
    userPausedUntil: () => settings.value('watchPausedUntil'),
  });
  const senders = deps.senders ?? SENDERS;
  const reach = channelReach({ ownPorts: deps.ownPorts, lookup: deps.channelLookup }); // connects to checked addresses only
  // The per-channel outbox (email, ntfy, webhook) runs beside the watch engine: a slow mail server never holds a poll.
  const channelOutbox: ChannelOutbox = new ChannelOutbox({
    store,
    clock: deps.clock,
    log,
    secrets: deps.secrets,
    senders,
    reach,
    netClock: deps.clientClock ?? deps.clock, // a send's deadline is network time, never an accelerated market's
    tzOffsetMinutes: tz,
    emit: (e) => emit(e),
    onSystemAlert: () => {
      engine.deliverNow().catch((e: unknown) => log.warn('the inbox could not show a channel alert', { error: (e as Error).message }));
    },
  });
  const channels = new ChannelService({ store, clock: deps.clock, secrets: deps.secrets, outbox: channelOutbox, senders, reach });
  const desk: DeskService = new DeskService({
    store,
    clock: deps.clock,
    settings: () => settings.get().desk,
    searchOnce: async (params): Promise<{ lots: number; ended: number }> => {
      const { lots } = await explore.search({ params });
      return { lots: lots.length, ended: lots.filter((l) => l.outcome !== 'open').length };
    },
    calendar: deps.calendar ?? null,
    libraryKeys: (q, limit) => service.searchLibrary({ q, limit, offset: 0 }).lots.map((l) => l.lot_key),
  });
  const service = new WatchService(store, engine, deps.clock, () => client, () => settings.get().demoMode, (row, rules) =>
    desk.figures(row, rules),
  );
  unread = service.unreadCount();
  const photos = new PhotoCache(db, join(deps.dataDir, 'photos'));
  const explore = new ExploreService(store, engine, service, deps.clock, () => client, () => {
    const s = settings.get();
    return s.demoMode ? 'demo' : s.serviceUrl;
  });

  /**
   * Demo mode's first start: a sample saved search and three watched lots whose auctions are minutes away, marked as
   * examples (one click removes them), so a new user sees alerts arrive within minutes.
   */
  async function seedDemoExamples(): Promise<void> {
    if (deps.demoExamples === false || !client || !settings.get().demoMode || !explore.once('demo-examples')) return;
    try {
      const page = (await client.searchVehicles({ per_page: 20 })).data.filter((v) => v.lot_number);
      const later = page.filter((v) => {
        const t = v.auction.auction_at ? Date.parse(v.auction.auction_at) : NaN;
        return Number.isFinite(t) && t > deps.clock.now() + 2 * 60_000;
      });
      // The soonest auctions at least two minutes away; on a fast demo clock, the latest of the first page.
      const picks = later.length >= 3 ? later.slice(0, 3) : page.slice(-3);
      for (const v of picks) {
        await service.addWatch({ target: v.lot_number!, label: 'Example', rules: undefined }, true);
      }
      service.createSearch(
        { name: 'Example: Tesla Model 3', params: { make: 'TESLA', model: 'MODEL 3' }, schedule: '*/10 * * * *', max_pages: 5 },
        true,
      );
    } catch (e) {
      log.warn('the Demo mode examples could not be created', { error: (e as Error).message });
    }
  }
  // The daily copy of a file database (docs/architecture.md "Data safety"); started with the engine.
  const binding = nativeBindingOf(db);
  const backups = db.memory
    ? null
    : new BackupScheduler({
        db,
        dataDir: deps.dataDir,
        clock: deps.clock,
        log,
        ...(binding ? { nativeBinding: binding } : {}),
        onDamaged: () => markSuspect(db),
      });
  // The daily retention pass (docs/architecture.md "Retention"): old observations, logs and read alerts, in small steps.
  const retention = new RetentionScheduler({ db, clock: deps.clock, log, fullRecordDays: () => settings.get().retentionDays });
  const ready = rebuildClient()
    .catch((e: unknown) => log.error('the service client could not be set up', { error: (e as Error).message }))
    .then(async () => {
      if (deps.autoStart === false || disposed) return;
      await seedDemoExamples();
      if (!disposed) engine.start();
      if (!disposed) channelOutbox.start();
      if (!disposed) backups?.start();
      if (!disposed) retention.start();
    });

  const context: HandlerContext = {
    db,
    store,
    settings,
    engine,
    budget,
    service,
    explore,
    desk,
    channels,
    apiConsole: new ApiConsole(store, () => client),
    photos,
    clock: deps.clock,
    secrets: deps.secrets,
    about: {
      version: deps.version,
      shell: deps.shell,
      electronVersion: deps.electronVersion ?? null,
      dataDir: deps.dataDir,
      dbPath: deps.dbPath,
    },
    ready,
    client: () => client,
    hasKey: () => keyFor(settings.get().serviceUrl) !== undefined,
    keyStoredFor: () => apiKey.storedForOther(settings.get().serviceUrl),
    async setKey(key) {
      apiKey.set(key);
      await rebuildClient();
      engine.wake();
    },
    rebuildClient,
    reachable: () => reachable,
    emit,
    pushUnread,
  };
  // One group per domain; joinHandlers makes a method missing from every group, or in two, a compile error here.
  const handlers: Handlers = joinHandlers(
    appHandlers(context),
    settingsHandlers(context),
    searchHandlers(context),
    watchlistHandlers(context),
    inboxHandlers(context),
    libraryHandlers(context),
    lotHandlers(context),
    deskHandlers(context),
    channelHandlers(context),
    consoleHandlers(context),
    backupHandlers(context),
  );

  const invoke: Core['invoke'] = async (method, input) => {
    if (disposed) {
      return {
        ok: false,
        error: { code: 'internal', message: 'Lotwatch is shutting down.', retryable: true },
      };
    }
    const p = dispatch(handlers, method, input, log);
    inFlight.add(p);
    try {
      const r = await p;
      // A full disk, a read-only or damaged file: the next start checks the file before it writes.
      if (!r.ok && r.error.code === 'db_unavailable') markSuspect(db);
      return r;
    } finally {
      inFlight.delete(p);
    }
  };

  return {
    engine,
    channelOutbox,
    ready,
    invoke,
    async call(method, input) {
      const r = await invoke(method, input);
      if (!r.ok) throw new LotwatchError(r.error.code, r.error.message, { retryable: r.error.retryable, ...(r.error.fields ? { fields: r.error.fields } : {}) });
      return r.value as never;
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed ??= (async () => {
        await ready;
        await engine.dispose();
        await channelOutbox.dispose().then(() => reach.close());
        await backups?.dispose();
        await retention.dispose();
        await Promise.allSettled([...inFlight]);
        await client?.close();
        listeners.clear();
        closeDatabase(db);
      })();
      return disposed;
    },
  };
}
