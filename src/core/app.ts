import type { Database } from 'better-sqlite3';
import type { Dispatcher } from 'undici';
import { createApiClient, type ApiClient } from './api';
import { PhotoCache } from './db/photoCache';
import { Store } from './db/store';
import { LotwatchError } from './errors';
import { join } from 'node:path';
import { RequestBudget } from './watch/budget';
import { WatchEngine } from './watch/engine';
import { ExploreService } from './watch/explore';
import { runsPerWeek } from './watch/cron';
import { WatchService } from './watch/service';
import type { AppInfo, ContractEvent } from '../shared/ipc/contract';
import type { Result } from '../shared/ipc/errors';
import type { QuotaSnapshot } from '../shared/vehicle';
import { SettingsPatchSchema } from '../shared/settings';
import type { Clock } from './clock';
import { SettingsRepo } from './db/settingsRepo';
import { schemaVersion } from './db/migrate';
import { sqliteVersion } from './db/connection';
import type { Logger } from './log';
import { dispatch, type Handlers } from './rpc';
import type { SecretBox } from './secrets';

/** A native or browser notification sink (DESIGN.md "Delivery"). Implemented by each shell. */
export interface Notifier {
  notify(n: { title: string; body: string; lotKey?: string }): void;
}

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
   * src/sandbox; core may not (DESIGN.md: the sandbox stays an honest stand-in).
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
}

const KEY_SECRET = 'api_key';

export interface Core {
  /** The watch engine (tests drive it with runDue on fake time). */
  readonly engine: WatchEngine;
  /** Resolves once the service client for the current mode is ready and the engine has started. */
  readonly ready: Promise<void>;
  /** Calls a contract method by name with unparsed input. Never throws: see `dispatch`. */
  invoke(method: unknown, input: unknown): Promise<Result<unknown>>;
  /** Subscribes to contract events. Returns the unsubscribe function. */
  on(listener: (e: ContractEvent) => void): () => void;
  /** Stops everything long-lived, waits for work in flight, then closes the database. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * The composition root without a shell (DESIGN.md "The parts"). Both the Electron and the headless shell
 * call this with their own ports.
 */
export function createCore(deps: CoreDeps): Core {
  const { db, log } = deps;
  const settings = new SettingsRepo(db, deps.clock);
  const listeners = new Set<(e: ContractEvent) => void>();
  // The unread count is pushed whenever it may have changed, so the navigation, title and badge follow live.
  let unread = -1;
  const pushUnread = () => {
    if (!db.open) return;
    const n = service.unreadCount();
    if (n === unread) return;
    unread = n;
    send({ name: 'unread.changed', payload: { count: n } });
  };
  // Whether the service answered the last request (null before the first): the header's "Offline".
  let reachable: boolean | null = null;
  const emit = (e: ContractEvent) => {
    send(e);
    if (e.name === 'alert.raised' || (e.name === 'poll.finished' && e.payload.alerts > 0)) pushUnread();
  };
  const send = (e: ContractEvent) => {
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

  // The API key lives encrypted in the store; its plain text only in this closure, never in a log or the renderer.
  let apiKey: string | null = null;
  try {
    const c = store.requests.getSecret(KEY_SECRET);
    apiKey = c ? deps.secrets.decrypt(c) : null;
  } catch (e) {
    log.warn('the stored API key could not be read; set it again', { error: (e as Error).message });
  }
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
    } else if (apiKey) {
      client = createApiClient({ ...clientOptions, baseUrl: s.serviceUrl, apiKey: () => apiKey ?? undefined });
    }
  }
  const budget = new RequestBudget({
    spentSince: (t) => store.requests.requestsSince(t),
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
    notify: (a) => {
      if (settings.get().notificationsEnabled) {
        deps.notifier.notify({ title: a.title, body: a.body, ...(a.lot_key ? { lotKey: a.lot_key } : {}) });
      }
    },
    emit: (e) => emit(e),
    quiet: () => settings.get().quietHours,
    tzOffsetMinutes: tz,
    examplesActive: () => settings.get().demoMode,
  });
  const service = new WatchService(store, engine, deps.clock, () => client, () => settings.get().demoMode);
  const photos = new PhotoCache(db, join(deps.dataDir, 'photos'));
  const explore = new ExploreService(store, engine, service, deps.clock, () => client, () => {
    const s = settings.get();
    return s.demoMode ? 'demo' : s.serviceUrl;
  });

  /**
   * Demo mode's first start: a sample saved search and three watched lots whose auctions are minutes away, marked
   * as examples (one click removes them), so a new user sees alerts arrive within minutes (issue 6).
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
  const ready = rebuildClient()
    .catch((e: unknown) => log.error('the service client could not be set up', { error: (e as Error).message }))
    .then(async () => {
      if (deps.autoStart === false || disposed) return;
      await seedDemoExamples();
      if (!disposed) engine.start();
    });

  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Lotwatch',
      version: deps.version,
      shell: deps.shell,
      mode: settings.get().demoMode ? 'demo' : 'live',
      dataDir: deps.dataDir,
      dbPath: deps.dbPath,
      platform: `${process.platform}-${process.arch}`,
      versions: {
        node: process.versions.node,
        electron: deps.electronVersion ?? null,
        sqlite: sqliteVersion(db),
      },
      schemaVersion: schemaVersion(db),
      clock: { now: deps.clock.now(), speed: deps.clock.speed ?? 1 },
    }),
    'settings.get': () => settings.get(),
    'settings.update': async (patch) => {
      const before = settings.get();
      const next = settings.update(SettingsPatchSchema.parse(patch));
      // Demo mode's examples never run on the user's real key: turning Demo mode off pauses them until the user
      // says (Settings asks: remove them or keep them paused); turning it on again resumes them.
      if (before.demoMode && !next.demoMode) explore.pauseExamples();
      if (!before.demoMode && next.demoMode) explore.resumeExamples();
      if (before.demoMode !== next.demoMode || before.serviceUrl !== next.serviceUrl) await rebuildClient();
      emit({ name: 'settings.changed', payload: next });
      return next;
    },
    'searches.list': () => service.listSearches(),
    'searches.create': (i) => service.createSearch(i),
    'searches.update': (i) => service.updateSearch(i),
    'searches.remove': (i) => service.removeSearch(i.id),
    'searches.runNow': async (i) => {
      await ready;
      return service.runSearchNow(i.id);
    },
    'searches.setPaused': (i) => service.setSearchPaused(i.id, i.paused),
    'searches.estimate': (i) => {
      const now = deps.clock.now();
      let perWeek = 0;
      let scheduleError: string | null = null;
      try {
        perWeek = runsPerWeek(i.schedule, now);
      } catch (e) {
        if (!(e instanceof LotwatchError) || e.code !== 'bad_input') throw e;
        scheduleError = e.fields?.['schedule']?.[0] ?? e.message;
      }
      const runs = perWeek / 7;
      const b = budget.plan(now, engine.plan().projectedNext24h);
      return {
        runs_per_week: perWeek,
        runs_per_day: runs,
        requests_per_day: runs * i.max_pages,
        allowed_per_day: b.allowedPerDay,
        planned_per_day: b.projectedNext24h,
        basis: b.basis,
        schedule_error: scheduleError,
      };
    },
    'watchlist.list': () => service.listWatches(),
    'watchlist.add': async (i) => {
      await ready;
      return service.addWatch(i);
    },
    'watchlist.remove': (i) => service.removeWatch(i.id),
    'watchlist.setRules': (i) => service.setWatchRules(i.id, i.rules, i.label),
    'watchlist.checkNow': async (i) => {
      await ready;
      return service.checkWatchNow(i.id);
    },
    'alerts.list': (i) => service.listAlerts(i),
    'alerts.markRead': (i) => {
      const r = service.markRead(i.ids, i.read);
      pushUnread();
      return r;
    },
    'alerts.unread': () => ({ count: service.unreadCount() }),
    'alerts.snooze': (i) => service.snooze(i),
    'alerts.mute': (i) => service.mute(i.lot_key, i.muted),
    'library.search': (i) => service.searchLibrary(i),
    'lots.get': (i) => service.lotDetail(i.lot_key),
    'status.get': () => {
      const now = deps.clock.now();
      const plan = engine.plan();
      return {
        mode: settings.get().demoMode ? ('demo' as const) : ('live' as const),
        key: { set: apiKey !== null, storage: deps.secrets.description },
        quota: store.requests.loadQuota(),
        budget: budget.plan(now, plan.projectedNext24h),
        scale: plan.scale,
        running: client !== null,
        paused_until: engine.pause().until,
        pause_reason: engine.pause().reason,
        pause_kind: engine.pause().kind,
        service_reachable: reachable,
      };
    },
    'photos.get': async (i) => {
      let p = photos.read(i.url);
      if (!p) {
        await ready;
        if (!client) {
          throw new LotwatchError('not_found', 'This photo is not cached. Add an API key or turn on Demo mode to load it.');
        }
        // A photo that failed is not asked for again for a day: each try is a request of the user's quota.
        if (photos.recentFailure(i.url, deps.clock.now())) {
          throw new LotwatchError('not_found', 'This photo could not be loaded. Lotwatch tries it again after a day.');
        }
        try {
          const img = await client.fetchImage(i.url);
          p = photos.write(i.url, i.lot_key ?? null, img.bytes, img.contentType, deps.clock.now());
        } catch (e) {
          // Refused before sending (a malformed URL) costs nothing, so only failures of a sent request count.
          if ((e as LotwatchError).code !== 'bad_input') photos.recordFailure(i.url, (e as LotwatchError).code ?? 'internal', deps.clock.now());
          throw e;
        }
      }
      return { data_url: `data:${p.contentType};base64,${p.bytes.toString('base64')}`, content_type: p.contentType, cached: p.cached };
    },
    'vehicles.search': async (i) => {
      await ready;
      return explore.search(i);
    },
    'vehicles.filters': async () => {
      await ready;
      return explore.filters();
    },
    'vehicles.get': async (i) => {
      await ready;
      return explore.get(i);
    },
    'vehicles.history': async (i) => {
      await ready;
      return explore.history(i);
    },
    'vehicles.related': async (i) => {
      await ready;
      return explore.related(i);
    },
    'shipping.get': async (i) => {
      await ready;
      return explore.shipping(i);
    },
    'locations.list': async (i) => {
      await ready;
      return explore.locations(i);
    },
    'usage.fetch': async () => {
      await ready;
      return explore.usage();
    },
    'requests.list': (i) => explore.requests(i?.limit ?? 200),
    'console.endpoints': () => explore.endpoints(),
    'console.call': async (i) => {
      await ready;
      return explore.console(i);
    },
    'library.export': (i) => explore.exportCsv(i),
    'examples.remove': () => explore.removeExamples(),
    'key.set': async (i) => {
      store.requests.setSecret(KEY_SECRET, deps.secrets.encrypt(i.key), deps.clock.now());
      apiKey = i.key;
      await rebuildClient();
      return { ok: true as const };
    },
    'key.test': async () => {
      await ready;
      if (!client) {
        return { ok: false, usage: null };
      }
      const usage = await client.getUsage();
      return { ok: true, usage: usage.data };
    },
    'key.clear': async () => {
      store.requests.deleteSecret(KEY_SECRET);
      apiKey = null;
      await rebuildClient();
      return { ok: true as const };
    },
  };

  return {
    engine,
    ready,
    async invoke(method, input) {
      if (disposed) {
        return {
          ok: false,
          error: { code: 'internal', message: 'Lotwatch is shutting down.', retryable: true },
        };
      }
      const p = dispatch(handlers, method, input, log);
      inFlight.add(p);
      try {
        return await p;
      } finally {
        inFlight.delete(p);
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed ??= (async () => {
        await ready;
        await engine.dispose();
        await Promise.allSettled([...inFlight]);
        await client?.close();
        listeners.clear();
        if (db.open) db.close();
      })();
      return disposed;
    },
  };
}
