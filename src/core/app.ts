import { sqliteDatabase } from './coreDatabase';
import type { Core, CoreDeps } from './appTypes';
import type { Transact } from './db/store';
import { ApiKeyStore } from './apiKey';
import { LotwatchError } from './errors';
import { RequestBudget } from './watch/budget';
import { WatchEngine } from './watch/engine';
import type { ContractEvent } from '../shared/ipc/contract';
import type { Handlers } from './rpc';
import { coreInvoke } from './coreInvoke';
import { WatchSwitch } from './watchSwitch';
import { refreshShared } from './sharedRefresh';
import { machineOffset } from './owners';
import { RequestLedger } from './requestLedger';
import { ServiceClient } from './serviceClient';
import { joinHandlers } from './handlerGroups';
import { LotsService } from './lots/service';
import { lotSummary } from './lots/views';
import { lotHandlers } from './lots/handlers';
import { ExploreService } from './explore/service';
import { ApiConsole } from './explore/apiConsole';
import { exploreHandlers } from './explore/handlers';
import { DeskService } from './desk/service';
import { searchPageVia } from './desk/market';
import { deskHandlers } from './desk/handlers';
import { WatchlistService } from './watchlist/service';
import { watchlistHandlers } from './watchlist/handlers';
import { SearchesService } from './searches/service';
import { searchHandlers } from './searches/handlers';
import { callRunnerOf, callWatchService } from './calls/factory';
import { callWatchHandlers } from './calls/handlers';
import { ChannelOutbox } from './channels/outbox';
import { ChannelService } from './channels/service';
import { SENDERS } from './channels/senders';
import { channelReach } from './channels/reach';
import { channelHandlers } from './channels/handlers';
import { InboxService } from './inbox/service';
import { inboxHandlers } from './inbox/handlers';
import { MemberState } from './team/personal';
import { DemoService } from './demo/service';
import { demoHandlers } from './demo/handlers';
import { appHandlers } from './settings/appHandlers';
import { followWatching } from './watch/watching';
import { backupHandlers } from './settings/backupHandlers';
import { settingsHandlers } from './settings/handlers';
import { teamHandlers } from './team/handlers';
import { teamLinkHandlers } from './teamLink';

export type { Notifier } from './alerts/notifier';
export type { Core, CoreDeps } from './appTypes';

/**
 * The composition root without a shell (docs/architecture.md "The parts"). Both the Electron and the headless shell
 * call this with their own ports.
 */
export function createCore(deps: CoreDeps): Core {
  const { log, clock } = deps;
  if (!deps.database && !deps.db) throw new Error('createCore needs a database (db or database).');
  const database =
    deps.database ?? sqliteDatabase(deps.db!, { dbPath: deps.dbPath, dataDir: deps.dataDir, clock });
  const settings = database.settings;
  const examplesActive = () => settings.get().demoMode;
  const listeners = new Set<(e: ContractEvent) => void>();
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
  const store = database.store;
  const transaction: Transact = (fn) => store.transaction(fn);
  const tz = deps.tzOffsetMinutes ?? machineOffset;
  const quiet = () => settings.get().quietHours;

  // ---- the service client, then the watcher: budget, engine, and the alert channels' outbox beside it ----------
  const apiKey = new ApiKeyStore({
    store,
    secrets: deps.secrets,
    clock,
    log,
    serviceUrl: () => settings.get().serviceUrl,
  });
  // The request log and quota snapshot in memory for the budget's synchronous questions, stored behind.
  const ledger: RequestLedger = new RequestLedger({
    requests: store.requests,
    quotaId: (): string | null => serviceClient.quotaId(),
    log,
  });
  const serviceClient = new ServiceClient({
    settings,
    apiKey,
    ledger,
    clock,
    clientClock: deps.clientClock ?? clock,
    log,
    dbOpen: () => database.isOpen(),
    emit,
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
    ...(deps.demoService ? { demoService: deps.demoService } : {}),
  });
  const access = { client: () => serviceClient.client(), clientOrThrow: () => serviceClient.clientOrThrow() };
  const budget = new RequestBudget({
    spentSince: (t) => ledger.spentSince(t),
    sentSince: (t) => ledger.sentSince(t),
    quota: () => ledger.quota(),
    userPerDay: () => settings.get().requestsPerDay,
  });
  const engine = new WatchEngine({
    store,
    client: access.client,
    clock,
    log,
    budget,
    quota: () => ledger.quota(),
    refreshLedger: (now) => ledger.refresh(now),
    notifier: deps.notifier,
    notificationsEnabled: () => settings.get().notificationsEnabled,
    emit,
    quiet,
    tzOffsetMinutes: tz,
    examplesActive,
    userPausedUntil: () => settings.value('watchPausedUntil'),
    calls: callRunnerOf({ store, client: access.client, clock, budget, emit, quiet, tzOffsetMinutes: tz }),
  });
  const senders = deps.senders ?? SENDERS;
  const reach = channelReach({ ownPorts: deps.ownPorts, lookup: deps.channelLookup }); // connects to checked addresses only
  // Each team member's own read state, settings, mutes and snoozes (the local owner keeps the desktop's columns).
  const member = new MemberState({ store, settings, clock });
  // The per-channel outbox (email, ntfy, webhook) runs beside the watch engine: a slow mail server never holds a poll.
  const channelOutbox = new ChannelOutbox({
    member,
    store,
    clock,
    log,
    secrets: deps.secrets,
    senders,
    reach,
    netClock: deps.clientClock ?? clock, // a send's deadline is network time, never an accelerated market's
    tzOffsetMinutes: tz,
    emit,
    onSystemAlert: () => {
      engine
        .deliverNow()
        .catch((e: unknown) =>
          log.warn('the inbox could not show a channel alert', { error: (e as Error).message }),
        );
    },
  });
  serviceClient.onQuota((q) => engine.onQuota(q));
  serviceClient.onRebuilt(() => engine.resetPause());
  const watching = followWatching({ clock, emit, listeners, service: serviceClient, engine, store, log });
  const keyFor = (url: string): string | undefined => apiKey.keyFor(url);
  const rebuildClient = () => serviceClient.rebuild();

  // ---- the domain modules, each built from what is above it (docs/architecture.md "The parts") -------------------
  const lots = new LotsService({
    ...access,
    lots: store.lots,
    library: store.library,
    watches: store.watches,
    desk: store.desk,
    engine,
    clock,
  });
  // Usage lists the request log as stored: the ledger's writes behind it are waited for first.
  const explore = new ExploreService({
    ...access,
    cache: store.cache,
    requests: {
      recent: async (limit) => (await ledger.flush(), store.requests.recent(limit)),
      requestsSinceFor: async (id, since) => (
        await ledger.flush(),
        store.requests.requestsSinceFor(id, since)
      ),
      spentByUser: async (since, until) => (await ledger.flush(), store.requests.spentByUser(since, until)),
    },
    engine,
    row: (v) => lots.row(v),
    transaction,
    clock,
    source: () => (settings.get().demoMode ? 'demo' : settings.get().serviceUrl),
    quotaId: () => serviceClient.quotaId(),
  });
  // The console counts what a call spent in the request log: the ledger's writes are waited for first.
  const requestsLogged = {
    count: async () => {
      await ledger.flush();
      return store.requests.count();
    },
  };
  const apiConsole = new ApiConsole(requestsLogged, access.clientOrThrow);
  const desk = new DeskService({
    store,
    clock,
    settings: () => settings.get().desk,
    searchPage: searchPageVia((i) => explore.search(i)),
    source: () => (settings.get().demoMode ? 'demo' : settings.get().serviceUrl),
    calendar: deps.calendar ?? null,
    spare: (n): boolean => watchSwitch.watching && engine.spare(n), // none on a team's server that does not watch
    log: deps.log,
    libraryKeys: async (q, limit) =>
      (await lots.searchLibrary({ q, limit, offset: 0 })).lots.map((l) => l.lot_key),
    fees: deps.feeFiles,
  });
  const watchlist = new WatchlistService({
    watches: store.watches,
    lots: store.lots,
    engine,
    transaction,
    clock,
    clientOrThrow: access.clientOrThrow,
    examplesActive,
    summary: lotSummary,
    figures: (row, rules) => desk.figures(row, rules, member), // a member sees their own max bid
    desk: store.desk,
    tzOffsetMinutes: tz,
  });
  const searches = new SearchesService({
    searches: store.searches,
    alerts: store.alerts,
    engine,
    budget,
    clock,
    clientOrThrow: access.clientOrThrow,
    transaction,
    tzOffsetMinutes: tz,
  });
  const channels = new ChannelService({
    store,
    clock,
    secrets: deps.secrets,
    outbox: channelOutbox,
    reach,
  });
  const inbox = new InboxService({ repos: store, transaction, clock, member, tzOffsetMinutes: tz });
  const callWatches = callWatchService({ store, engine, clock, apiConsole, ...access, examplesActive });
  const demo = new DemoService({
    callRows: store.calls,
    calls: callWatches,
    callExample: async () => (deps.demoService ? ((await deps.demoService()).callExample ?? null) : null),
    searchRows: store.searches,
    watchRows: store.watches,
    cache: store.cache,
    transaction,
    engine,
    clock,
    log,
    client: access.client,
    demoMode: () => settings.get().demoMode,
    watchlist,
    searches,
    liveBids: async () => (deps.demoService ? ((await deps.demoService()).liveBids?.() ?? []) : []),
  });

  // Watching: Demo's first examples, the loop, the market pass (a team's server: only while it leads).
  const watchSwitch: WatchSwitch = new WatchSwitch({
    prepared: () => prepared,
    ...(deps.demoExamples !== false ? { seed: () => demo.seed() } : {}),
    log,
    engine,
    ...(deps.marketAuto ? { market: desk } : {}),
    disposing: () => disposed !== undefined,
  });
  const startWatching = () => watchSwitch.start();

  // The unread count is pushed when it may have changed (navigation, title, badge); the count at start is the baseline.
  let unread: number | null = null;
  const pushUnread = async (): Promise<void> => {
    if (!database.isOpen()) return;
    const n = await inbox.unreadCount();
    if (n === unread) return;
    unread = n;
    emit({ name: 'unread.changed', payload: { count: n } });
  };
  // What is read from the store once at start, before the service client is built and before any method answers
  // (invoke waits for it): the buyer's API key, and the unread count's baseline. Never rejects: a failure is logged.
  const opened = (async () => {
    await apiKey.load();
    try {
      unread = await inbox.unreadCount();
    } catch (e) {
      log.warn('the unread count could not be read', { error: (e as Error).message });
    }
  })();
  // After each delivery round: the unread count, and the alert channels route what was just raised.
  engine.onDelivered(() => {
    pushUnread().catch((e: unknown) =>
      log.warn('the unread count could not be read', { error: (e as Error).message }),
    );
    channelOutbox.kick();
  });

  // The daily copy of a file database and the daily retention pass (docs/architecture.md "Data safety").
  const dailyJobs = database.dailyJobs({
    dataDir: deps.dataDir,
    clock,
    log,
    fullRecordDays: () => settings.get().retentionDays,
  });
  // The ledger is loaded before the first request can be counted or the budget asked.
  // Set up before anything watches (a team's server may start watching as soon as it leads): the ledger, the key.
  const prepared = ledger
    .load(clock.now())
    .then(() => opened) // the stored key, before the client is built for it
    .then(() => rebuildClient())
    .catch((e: unknown) =>
      log.error('the service client could not be set up', { error: (e as Error).message }),
    );
  const ready = prepared.then(async () => {
    if (deps.autoStart === false || disposed) return;
    if (!deps.teamLink?.state().joined) await startWatching(); // joined: the team server watches
    if (!disposed) channelOutbox.start();
    for (const j of dailyJobs) if (!disposed) j.start();
  });

  // One group per domain; joinHandlers makes a method missing from every group, or in two, a compile error here.
  const handlers: Handlers = joinHandlers(
    appHandlers({
      settings,
      clock,
      engine,
      budget,
      quota: () => ledger.quota(),
      about: {
        version: deps.version,
        shell: deps.shell,
        electronVersion: deps.electronVersion ?? null,
        dataDir: deps.dataDir,
        dbPath: database.location,
      },
      database: () => ({ engine: database.engine, ...database.versions() }),
      secretsDescription: deps.secrets.description,
      client: access.client,
      hasKey: () => keyFor(settings.get().serviceUrl) !== undefined,
      keyStoredFor: () => apiKey.storedForOther(settings.get().serviceUrl),
      reachable: () => serviceClient.reachable(),
      watching: () => watching.current(),
    }),
    settingsHandlers({
      settings,
      clock,
      engine,
      demo,
      client: access.client,
      ready,
      async setKey(key) {
        await apiKey.set(key);
        await rebuildClient();
        engine.wake();
      },
      rebuildClient,
      emit,
      member,
    }),
    searchHandlers({ searches, ready }),
    callWatchHandlers({ calls: callWatches, ready }),
    watchlistHandlers({ watchlist, ready, member, emit }),
    inboxHandlers({
      inbox,
      watchlist,
      deliveriesOf: (id) => channels.deliveriesOf(id),
      pushUnread,
      member,
      emit,
    }),
    lotHandlers({
      lots,
      photos: database.photos,
      clock,
      client: access.client,
      ready,
    }),
    exploreHandlers({ explore, apiConsole, ready }),
    deskHandlers({ desk, ready, member }),
    channelHandlers({ channels, clock, emit }),
    demoHandlers(demo),
    backupHandlers({
      dataDir: deps.dataDir,
      dbPath: deps.dbPath,
      clock,
      nativeBinding: database.nativeBinding,
      engine: database.engine,
    }),
    teamHandlers({ team: deps.team ?? null }),
    teamLinkHandlers(deps.teamLink ?? null),
  );

  const invoke = coreInvoke({
    handlers,
    log,
    opened,
    disposing: () => disposed !== undefined,
    inFlight,
    suspect: () => database.suspect(),
  });

  return {
    engine,
    channelOutbox,
    ready,
    startWatching,
    stopWatching: () => watchSwitch.stop(),
    isWatching: () => watchSwitch.watching,
    refreshShared: () =>
      refreshShared({
        settings,
        keyFor,
        loadKey: () => apiKey.load(),
        refreshLedger: () => ledger.refresh(clock.now()),
        rebuildClient,
        wake: () => engine.wake(),
      }),
    refreshLedger: () => ledger.refresh(clock.now()),
    invoke,
    async call(method, input) {
      const r = await invoke(method, input);
      if (!r.ok)
        throw new LotwatchError(r.error.code, r.error.message, {
          retryable: r.error.retryable,
          ...(r.error.fields ? { fields: r.error.fields } : {}),
        });
      return r.value as never;
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed ??= (async () => {
        await ready;
        watching.stop();
        await engine.dispose();
        await channelOutbox.dispose().then(() => reach.close());
        for (const j of dailyJobs) await j.dispose();
        await desk.dispose();
        await Promise.allSettled([...inFlight]);
        await serviceClient.close();
        await ledger.flush();
        listeners.clear();
        await database.close();
      })();
      return disposed;
    },
  };
}
