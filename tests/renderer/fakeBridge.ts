import type { Bridge } from '../../src/shared/ipc/bridge';
import type { AppInfo, ContractEvent, Method, MethodInput, MethodOutput } from '../../src/shared/ipc/contract';
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
export function errResult(code: ErrorPayload['code'], message: string, extra: Partial<ErrorPayload> = {}): Result<never> {
  return { ok: false, error: { code, message, retryable: false, ...extra } };
}

/**
 * A typed in-memory stand-in for core behind the contract: real validation of settings patches (the shared
 * zod schema), real events, recorded calls, and the inbox's unread count (`alerts.unread`, with `setUnread` pushing
 * `unread.changed` as core does when an alert arrives or is read).
 */
export function createFakeBridge(
  over: { info?: Partial<AppInfo>; settings?: Partial<Settings>; handlers?: FakeHandlers; unread?: number } = {},
) {
  let settings: Settings = { ...DEFAULT_SETTINGS, ...over.settings };
  let unread = over.unread ?? 0;
  const listeners = new Set<(e: ContractEvent) => void>();
  const calls: { method: Method; input: unknown }[] = [];
  const info = (): AppInfo => ({
    name: 'Lotwatch',
    version: '0.1.0',
    shell: 'headless',
    mode: settings.demoMode ? 'demo' : 'live',
    dataDir: '/home/u/.config/lotwatch',
    dbPath: '/home/u/.config/lotwatch/lotwatch.sqlite',
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
  };
}
