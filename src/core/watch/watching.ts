import { UNREACHABLE_MESSAGES } from '../api/errors';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';
import { sameWatchingState, type WatchingState } from '../../shared/watching';
import type { PauseKind } from './pause';

/** What the state of watching is made of, read at one instant. Times are ms since the epoch. */
export interface WatchingInputs {
  now: number;
  /** Whether a service client exists (a key for the service's address, or Demo mode). */
  hasClient: boolean;
  /** The service answered the last request 401 (the key was refused) and no later answer succeeded. */
  keyRejected: boolean;
  /** Whether the service answered the last request; null before the first. */
  reachable: boolean | null;
  /** The watcher's pause (PauseGate.state): until when and why, or nulls. */
  pause: { until: number | null; kind: PauseKind | null };
}

/**
 * The one state of watching (src/shared/watching.ts) from its inputs. Pure; throws nothing. The order says what
 * the buyer must act on first: no key, then a refused key (another key is needed), then no answer from the service
 * (nothing else can be known), then a spent quota (resuming by hand would not help), the buyer's own pause, a short
 * rate-limit wait, else running. A pause whose end has passed is over.
 */
export function deriveWatchingState(i: WatchingInputs): WatchingState {
  if (!i.hasClient) return { kind: 'no_key' };
  if (i.keyRejected) return { kind: 'key_rejected' };
  if (i.reachable === false) return { kind: 'offline' };
  const { until, kind } = i.pause;
  if (kind === 'quota_spent' && (until === null || until > i.now)) return { kind: 'quota_spent', until };
  if (until !== null && until > i.now) {
    if (kind === 'user') return { kind: 'paused_by_buyer', until };
    if (kind === 'rate_limited') return { kind: 'rate_limited', until };
  }
  return { kind: 'running' };
}

/** The events after which the state of watching may differ. */
const TRIGGERS: ReadonlySet<ContractEvent['name']> = new Set([
  'quota.changed',
  'reachability.changed',
  'settings.changed',
  'poll.finished',
]);

/**
 * Keeps the state of watching and sends `watching.changed` the moment it changes: after an event that may change
 * it (a quota snapshot, reachability, a settings change such as the buyer's pause, a finished poll), after an
 * answer or a new client (`refresh`), and when a pause's end arrives (a timer on the injected clock), never on a
 * view's next poll. Throws nothing; `read` throws only what its sources throw.
 */
export class WatchingTracker {
  private last: WatchingState | null = null;
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly d: {
      clock: Clock;
      read: (now: number) => WatchingInputs;
      emit: (e: ContractEvent) => void;
    },
  ) {}

  /** The state now (also what `status.get` says). */
  current(): WatchingState {
    return deriveWatchingState(this.d.read(this.d.clock.now()));
  }

  /** Follows core's events: recomputes after the ones that may change the state. */
  onEvent(e: ContractEvent): void {
    if (TRIGGERS.has(e.name)) this.refresh();
  }

  /** Recomputes; sends `watching.changed` when the state differs from the last one sent, and arms the end timer. */
  refresh(): void {
    const next = this.current();
    const changed = this.last === null || !sameWatchingState(this.last, next);
    this.last = next;
    this.cancelTimer?.();
    this.cancelTimer = null;
    const until = 'until' in next ? next.until : null;
    if (until !== null) {
      const wait = Math.max(0, until - this.d.clock.now()) + 1;
      this.cancelTimer = this.d.clock.setTimeout(() => this.refresh(), wait);
    }
    if (changed) this.d.emit({ name: 'watching.changed', payload: next });
  }

  /** Cancels the end timer (core is closing). */
  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}

/** What `followWatching` reads the state from: the service client's side (ServiceClient) and the watcher's pause. */
export interface WatchingSources {
  clock: Clock;
  emit: (e: ContractEvent) => void;
  /** Core's event listeners: the tracker adds itself, so it hears every event core sends. */
  listeners: { add(l: (e: ContractEvent) => void): unknown };
  service: {
    client(): unknown;
    keyRejected(): boolean;
    reachable(): boolean | null;
    onAnswer(l: () => void): unknown;
    onRebuilt(l: () => void): unknown;
  };
  /** The store: a watch's stale "could not reach the service" error is forgotten once the service answers. */
  store: { watches: { clearErrorsStartingWith(prefixes: readonly string[]): Promise<number> } };
  /** Where a store that fails to clear them is said. */
  log: Pick<Logger, 'warn'>;
  /** The watcher (WatchEngine): its pause, until when and why. */
  engine: { pause(): { until: number | null; kind: PauseKind | null } };
}

/**
 * Builds the tracker of the state of watching and hooks it to its sources: core's events, every answer of the
 * service and every new client; when the service answers again, clears the watches' stale "could not reach" errors.
 * Throws nothing (a store that fails is logged).
 */
export function followWatching(s: WatchingSources): WatchingTracker {
  const tracker = new WatchingTracker({
    clock: s.clock,
    emit: s.emit,
    read: (now) => ({
      now,
      hasClient: s.service.client() !== null,
      keyRejected: s.service.keyRejected(),
      reachable: s.service.reachable(),
      pause: s.engine.pause(),
    }),
  });
  s.listeners.add((e) => {
    tracker.onEvent(e);
    // Back online: a row's "could not reach the service" no longer holds; the watchlist refreshes on the event.
    if (e.name === 'reachability.changed' && e.payload.reachable)
      s.store.watches.clearErrorsStartingWith(UNREACHABLE_MESSAGES).catch((err: unknown) => {
        s.log.warn('watch: could not clear the watches\' "could not reach" errors', {
          error: (err as Error)?.message ?? String(err),
        });
      });
  });
  s.service.onAnswer(() => tracker.refresh());
  s.service.onRebuilt(() => tracker.refresh());
  return tracker;
}
