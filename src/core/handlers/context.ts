import type { Database } from 'better-sqlite3';
import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { PhotoCache } from '../db/photoCache';
import type { SettingsRepo } from '../db/settingsRepo';
import type { Store } from '../db/store';
import type { Handlers } from '../rpc';
import type { SecretBox } from '../secrets';
import type { RequestBudget } from '../watch/budget';
import type { ApiConsole } from '../watch/apiConsole';
import type { ChannelService } from '../channels/service';
import type { DeskService } from '../desk/service';
import type { WatchEngine } from '../watch/engine';
import type { ExploreService } from '../watch/explore';
import type { WatchService } from '../watch/service';
import type { AppInfo, ContractEvent, Method } from '../../shared/ipc/contract';

/**
 * What the contract handlers share: the parts createCore builds and the few pieces of its state they read or
 * change (the client, the API key, reachability). Handlers get this instead of closing over createCore's locals.
 */
export interface HandlerContext {
  db: Database;
  store: Store;
  settings: SettingsRepo;
  engine: WatchEngine;
  budget: RequestBudget;
  service: WatchService;
  explore: ExploreService;
  desk: DeskService;
  channels: ChannelService;
  apiConsole: ApiConsole;
  photos: PhotoCache;
  clock: Clock;
  secrets: SecretBox;
  /** About the app, for app.info. */
  about: { version: string; shell: AppInfo['shell']; electronVersion: string | null; dataDir: string; dbPath: string };
  /** Resolves once the client for the current mode is set up (calls that reach the service wait for it). */
  ready: Promise<void>;
  /** The client for the current key and mode, or null. */
  client(): ApiClient | null;
  /** Whether an API key is stored for the service URL's origin (the only key that is ever sent). */
  hasKey(): boolean;
  /** The origin a stored key was entered for, when the service URL now points elsewhere (kept, not sent); else null. */
  keyStoredFor(): string | null;
  /** Stores (encrypted) or forgets the API key, then rebuilds the client. */
  setKey(key: string | null): Promise<void>;
  /** Rebuilds the client after the mode or the service URL changed. */
  rebuildClient(): Promise<void>;
  /** Whether the service answered the last request (null before the first). */
  reachable(): boolean | null;
  emit(e: ContractEvent): void;
  /** Pushes `unread.changed` when the unread count changed. */
  pushUnread(): void;
}

/** The handlers of some contract methods: exactly those named by `M`, each typed from the contract. */
export type HandlerGroup<M extends Method> = Pick<Handlers, M>;

/** The joined map when `T`'s groups are disjoint and cover the contract; otherwise a type naming what is wrong. */
export type Joined<T extends readonly object[], Seen extends PropertyKey = never> = T extends readonly [
  infer H extends object,
  ...infer R extends readonly object[],
]
  ? [keyof H & Seen] extends [never]
    ? Joined<R, Seen | keyof H>
    : { error: 'a method is handled by two groups'; methods: keyof H & Seen }
  : [Exclude<Method, Seen>] extends [never]
    ? Handlers
    : { error: 'a contract method has no handler'; methods: Exclude<Method, Seen> };

/**
 * Joins handler groups into the contract's one map. The result is typed `Handlers` only when every contract
 * method is handled by exactly one group, so a missing, doubled or unknown method is a compile error where the
 * map is assigned. Throws nothing.
 */
export function joinHandlers<T extends readonly HandlerGroup<Method>[] | readonly Partial<Handlers>[]>(...groups: T): Joined<T> {
  return Object.assign({}, ...groups) as Joined<T>;
}
