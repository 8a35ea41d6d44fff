import { ChannelSaveSchema, type ChannelView, type DeliveryView } from '../../src/shared/alertChannels';
import type { Bridge } from '../../src/shared/ipc/bridge';
import type {
  AppInfo,
  ContractEvent,
  Method,
  MethodInput,
  MethodOutput,
} from '../../src/shared/ipc/contract';
import type { ErrorPayload, Result } from '../../src/shared/ipc/errors';
import { DEFAULT_SETTINGS, SettingsPatchSchema, type Settings } from '../../src/shared/settings';

/** A test's own answer for a method: the whole Result, so a test can answer with an error too. */
export type FakeHandler<M extends Method> = (
  input: MethodInput<M> | undefined,
) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;
export type FakeHandlers = { [M in Method]?: FakeHandler<M> };

/** A successful answer for a FakeHandler. */
export function okResult<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed answer for a FakeHandler. */
export function errResult(
  code: ErrorPayload['code'],
  message: string,
  extra: Partial<ErrorPayload> = {},
): Result<never> {
  return { ok: false, error: { code, message, retryable: false, ...extra } };
}

/** What core shows of a stored secret: the address up to its first path part, else dots. */
function secretHint(secret: string): string {
  const m = /^https?:\/\/([^/]+\/[^/]+)/i.exec(secret);
  return m ? `${m[1]}/…` : '••••';
}

/**
 * A typed in-memory stand-in for core behind the contract: real validation of settings patches and alert channels
 * (the shared zod schemas), real events, recorded calls, and the inbox's unread count (`alerts.unread`, with
 * `setUnread` pushing `unread.changed` as core does when an alert arrives or is read).
 */
export function createFakeBridge(
  over: {
    info?: Partial<AppInfo>;
    settings?: Partial<Settings>;
    handlers?: FakeHandlers;
    unread?: number;
    /** The alert channels and delivery log `channels.list` starts with (none by default). */
    channels?: ChannelView[];
    deliveries?: DeliveryView[];
  } = {},
) {
  let settings: Settings = { ...DEFAULT_SETTINGS, ...over.settings };
  let unread = over.unread ?? 0;
  let channels: ChannelView[] = over.channels ?? [];
  const deliveries: DeliveryView[] = over.deliveries ?? [];
  const listeners = new Set<(e: ContractEvent) => void>();
  const calls: { method: Method; input: unknown }[] = [];
  const info = (): AppInfo => ({
    name: 'Lotwatch',
    version: '0.1.0',
    shell: 'headless',
    mode: settings.demoMode ? 'demo' : 'live',
    dataDir: '/home/u/.config/lotwatch',
    dbPath: '/home/u/.config/lotwatch/lotwatch.sqlite',
    database: 'sqlite',
    platform: 'linux-x64',
    versions: { node: '20.20.2', electron: null, sqlite: '3.50.0' },
    schemaVersion: 10,
    clock: { now: Date.now(), speed: 1 },
    ...over.info,
  });
  const bridge: Bridge = {
    async invoke<M extends Method>(method: M, input?: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
      calls.push({ method, input });
      const okv = (value: unknown) => ({ ok: true, value }) as Result<MethodOutput<M>>;
      const own = over.handlers?.[method] as FakeHandler<M> | undefined;
      if (own) return own(input);
      switch (method) {
        case 'app.info':
          return okv(info());
        case 'settings.get':
          return okv(settings);
        case 'settings.update': {
          const p = SettingsPatchSchema.safeParse(input);
          if (!p.success) {
            const fields: Record<string, string[]> = {};
            for (const i of p.error.issues) (fields[String(i.path[0])] ??= []).push(i.message);
            return { ok: false, error: { code: 'bad_input', message: 'invalid', retryable: false, fields } };
          }
          settings = { ...settings, ...p.data };
          for (const l of listeners) l({ name: 'settings.changed', payload: settings });
          return okv(settings);
        }
        case 'alerts.unread':
          return okv({ count: unread });
        case 'backups.list':
          // Settings lists the backups on every visit: none yet, unless a test answers otherwise.
          return okv({ folder: `${info().dataDir}/backups`, backups: [], pending: null });
        case 'channels.list':
          return okv({ channels, log: deliveries });
        case 'channels.save': {
          // As core: the shared schema decides, field errors keyed by their path (`config.host`).
          const p = ChannelSaveSchema.safeParse(input);
          if (!p.success) {
            const fields: Record<string, string[]> = {};
            for (const i of p.error.issues) (fields[i.path.join('.')] ??= []).push(i.message);
            return { ok: false, error: { code: 'bad_input', message: 'invalid', retryable: false, fields } };
          }
          const { id, secret, ...rest } = p.data;
          const before = id === undefined ? undefined : channels.find((c) => c.id === id);
          if (id !== undefined && !before)
            return { ok: false, error: { code: 'not_found', message: 'No such channel.', retryable: false } };
          const hasSecret = secret === undefined ? (before?.has_secret ?? false) : secret !== null;
          const view: ChannelView = {
            ...rest,
            id: id ?? Math.max(0, ...channels.map((c) => c.id)) + 1,
            type: rest.config.type,
            has_secret: hasSecret,
            secret_hint: !hasSecret
              ? null
              : typeof secret === 'string'
                ? secretHint(secret)
                : (before?.secret_hint ?? null),
            health: before?.health ?? { last_sent_at: null, failures: 0, last_error: null, waiting: 0 },
          };
          channels = before ? channels.map((c) => (c.id === view.id ? view : c)) : [...channels, view];
          return okv(view);
        }
        case 'channels.remove':
          channels = channels.filter((c) => c.id !== (input as { id: number }).id);
          return okv({ ok: true });
        default:
          return { ok: false, error: { code: 'unknown_method', message: 'no', retryable: false } };
      }
    },
    on(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const emit = (e: ContractEvent) => listeners.forEach((l) => l(e));
  return {
    bridge,
    calls,
    emit,
    /** Sets the unread count and announces it with `unread.changed`. */
    setUnread(count: number) {
      unread = count;
      emit({ name: 'unread.changed', payload: { count } });
    },
    get settings() {
      return settings;
    },
    /** The alert channels as saved so far. */
    get channels() {
      return channels;
    },
  };
}
