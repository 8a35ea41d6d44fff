import { silentLogger } from '../../../src/core/log';
import { describe, expect, it } from 'vitest';
import { QuotaSpentError, UNREACHABLE_MESSAGES } from '../../../src/core/api/errors';
import { PauseGate } from '../../../src/core/watch/pause';
import { deriveWatchingState, followWatching, type WatchingInputs } from '../../../src/core/watch/watching';
import type { ContractEvent } from '../../../src/shared/ipc/contract';
import type { QuotaSnapshot } from '../../../src/shared/vehicle';
import { WatchingStateSchema } from '../../../src/shared/watching';
import { FakeClock } from '../../helpers/fakeClock';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const DAY = 86_400_000;
const base: WatchingInputs = {
  now: NOW,
  hasClient: true,
  keyRejected: false,
  reachable: true,
  pause: { until: null, kind: null },
};
const at = (over: Partial<WatchingInputs>) => deriveWatchingState({ ...base, ...over });

describe('deriveWatchingState', () => {
  it('says running when nothing holds the watcher back', () => {
    expect(at({})).toEqual({ kind: 'running' });
    expect(at({ reachable: null })).toEqual({ kind: 'running' });
  });

  it('says each pause with its end', () => {
    expect(at({ pause: { until: NOW + 3_600_000, kind: 'user' } })).toEqual({
      kind: 'paused_by_buyer',
      until: NOW + 3_600_000,
    });
    expect(at({ pause: { until: NOW + 5 * DAY, kind: 'quota_spent' } })).toEqual({
      kind: 'quota_spent',
      until: NOW + 5 * DAY,
    });
    expect(at({ pause: { until: null, kind: 'quota_spent' } })).toEqual({ kind: 'quota_spent', until: null });
    expect(at({ pause: { until: NOW + 60_000, kind: 'rate_limited' } })).toEqual({
      kind: 'rate_limited',
      until: NOW + 60_000,
    });
  });

  it('a pause whose end has passed is over', () => {
    expect(at({ pause: { until: NOW, kind: 'user' } })).toEqual({ kind: 'running' });
    expect(at({ pause: { until: NOW - 1, kind: 'quota_spent' } })).toEqual({ kind: 'running' });
  });

  it('puts what the buyer must act on first: no key, refused key, offline, then the pauses', () => {
    const quota = { until: NOW + DAY, kind: 'quota_spent' as const };
    expect(at({ hasClient: false, keyRejected: true, reachable: false, pause: quota })).toEqual({
      kind: 'no_key',
    });
    expect(at({ keyRejected: true, reachable: false, pause: quota })).toEqual({ kind: 'key_rejected' });
    expect(at({ reachable: false, pause: quota })).toEqual({ kind: 'offline' });
    expect(at({ pause: quota })).toEqual({ kind: 'quota_spent', until: NOW + DAY });
  });

  it('every state it gives is one the contract accepts', () => {
    for (const s of [
      at({}),
      at({ hasClient: false }),
      at({ keyRejected: true }),
      at({ reachable: false }),
      at({ pause: { until: NOW + DAY, kind: 'quota_spent' } }),
      at({ pause: { until: NOW + DAY, kind: 'user' } }),
    ])
      expect(WatchingStateSchema.parse(s)).toEqual(s);
  });
});

/** A service client's side as the tracker reads it, with its listeners called by hand. */
function fakeService() {
  const answer = new Set<() => void>();
  const s = {
    hasClient: true,
    rejected: false,
    reach: true as boolean | null,
    client: () => (s.hasClient ? {} : null),
    keyRejected: () => s.rejected,
    reachable: () => s.reach,
    onAnswer: (l: () => void) => answer.add(l),
    onRebuilt: (l: () => void) => answer.add(l),
    answered: () => answer.forEach((l) => l()),
  };
  return s;
}

describe('WatchingTracker (followWatching)', () => {
  function setup() {
    const clock = new FakeClock(NOW);
    let quota: QuotaSnapshot | null = null;
    let userUntil: number | null = null;
    const gate = new PauseGate(
      clock,
      () => quota,
      () => userUntil,
    );
    const sent: ContractEvent[] = [];
    const listeners = new Set<(e: ContractEvent) => void>();
    const emit = (e: ContractEvent) => {
      sent.push(e);
      listeners.forEach((l) => l(e));
    };
    const service = fakeService();
    const cleared: (readonly string[])[] = [];
    const store = {
      watches: { clearErrorsStartingWith: async (p: readonly string[]) => (cleared.push(p), 0) },
    };
    const engine = { pause: () => gate.state() };
    const tracker = followWatching({ clock, emit, listeners, service, engine, store, log: silentLogger });
    const states = () => sent.filter((e) => e.name === 'watching.changed').map((e) => e.payload);
    return {
      cleared,
      clock,
      gate,
      emit,
      service,
      tracker,
      states,
      setQuota: (q: QuotaSnapshot | null) => (quota = q),
      setUser: (u: number | null) => (userUntil = u),
    };
  }
  const snapshot = (remaining: number, periodEnd: number): QuotaSnapshot => ({
    at: NOW,
    limit: 5,
    baseLimit: 5,
    extraLimit: 0,
    used: 5 - remaining,
    remaining,
    periodStart: periodEnd - 30 * DAY,
    periodEnd,
    perPageLimit: null,
    rateLimit: null,
    rateRemaining: null,
  });

  it('sends a spent quota once, and running again the moment the period ends, without being asked', () => {
    const t = setup();
    t.tracker.refresh();
    const end = NOW + 3 * DAY;
    t.setQuota(snapshot(0, end));
    t.emit({ name: 'quota.changed', payload: snapshot(0, end) });
    t.emit({
      name: 'poll.finished',
      payload: { target: 'watch:1', at: NOW, status: 'skipped', requests: 0, changes: 0, alerts: 0 },
    });
    expect(t.states()).toEqual([{ kind: 'running' }, { kind: 'quota_spent', until: end }]);
    t.clock.advanceTo(end - 1);
    expect(t.states()).toHaveLength(2);
    t.clock.advanceTo(end + 1);
    expect(t.states().at(-1)).toEqual({ kind: 'running' });
    expect(t.tracker.current()).toEqual({ kind: 'running' });
    t.tracker.stop();
  });

  it("a 429's hold ends when a newer snapshot says requests remain (the period rolled over early, the plan was raised)", () => {
    const t = setup();
    const end = NOW + 10 * DAY;
    t.gate.hold(new QuotaSpentError('/api/v1/vehicles', end, null, NOW), NOW);
    t.tracker.refresh();
    expect(t.states().at(-1)).toEqual({ kind: 'quota_spent', until: end });
    const fresh = snapshot(4, NOW + 40 * DAY);
    expect(t.gate.onQuota(fresh)).toBe(true);
    t.setQuota(fresh);
    t.emit({ name: 'quota.changed', payload: fresh });
    expect(t.states().at(-1)).toEqual({ kind: 'running' });
    t.tracker.stop();
  });

  it("follows the buyer's pause, the service going away and coming back, and a refused key", () => {
    const t = setup();
    t.tracker.refresh();
    t.setUser(NOW + 3_600_000);
    t.emit({ name: 'settings.changed', payload: {} as never });
    expect(t.states().at(-1)).toEqual({ kind: 'paused_by_buyer', until: NOW + 3_600_000 });
    t.clock.advance(3_600_001);
    expect(t.states().at(-1)).toEqual({ kind: 'running' });
    t.service.reach = false;
    t.emit({ name: 'reachability.changed', payload: { reachable: false, at: NOW } });
    expect(t.states().at(-1)).toEqual({ kind: 'offline' });
    expect(t.cleared).toEqual([]);
    t.service.reach = true;
    t.emit({ name: 'reachability.changed', payload: { reachable: true, at: NOW } });
    // Back online: the watches' stale "could not reach the service" errors are forgotten.
    expect(t.cleared).toEqual([UNREACHABLE_MESSAGES]);
    expect(t.states().at(-1)).toEqual({ kind: 'running' });
    t.service.rejected = true;
    t.service.answered();
    expect(t.states().at(-1)).toEqual({ kind: 'key_rejected' });
    t.service.rejected = false;
    t.service.answered();
    expect(t.states().at(-1)).toEqual({ kind: 'running' });
    // An unchanged state is not sent again.
    const n = t.states().length;
    t.service.answered();
    expect(t.states()).toHaveLength(n);
    t.tracker.stop();
  });
});
